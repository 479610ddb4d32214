/**
 * The listed runs over time (SVG, no library: at most a page of bars): rows and bytes each finished
 * run wrote, oldest on the left, failed runs marked, and how many succeeded. Each chart is an image
 * whose text equivalent (its aria-label) names the figures.
 */
import type { JsonAnswer } from '../../api/client';

type Execution = JsonAnswer<'/api/v1/executions', 'get'>['items'][number];

const FAILED = new Set(['failed', 'partially_failed', 'cancelled']);
const BAR = 12;

function RunBars({
  label,
  runs,
  value,
  format,
}: {
  label: string;
  runs: Execution[];
  value: (run: Execution) => number;
  format: (n: number) => string;
}) {
  const values = runs.map(value);
  const highest = Math.max(0, ...values);
  // The scale's top: at least 1, so a chart of zeros draws flat bars instead of dividing by zero.
  const top = Math.max(1, highest);
  const total = values.reduce((sum, v) => sum + v, 0);
  const latest = values[values.length - 1] ?? 0;
  return (
    <figure className="chart runs-chart">
      <svg
        role="img"
        aria-label={`${label}, ${runs.length} runs oldest first: highest ${format(highest)}, latest ${format(latest)}, in all ${format(total)}`}
        viewBox={`0 0 ${runs.length * BAR} 100`}
        preserveAspectRatio="none"
      >
        {runs.map((run, i) => {
          // A failed run that wrote nothing still shows, as a low red bar.
          const height = Math.max((values[i]! / top) * 100, FAILED.has(run.status) ? 3 : 0);
          return (
            <rect
              key={run.id}
              className={FAILED.has(run.status) ? 'failed' : undefined}
              x={i * BAR + 2}
              width={BAR - 4}
              y={100 - height}
              height={height}
            >
              <title>{`${new Date(run.created_at).toLocaleString()} ${run.kind} ${run.status}: ${format(values[i]!)}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption>
        {label}: highest {format(highest)}, latest {format(latest)}
      </figcaption>
    </figure>
  );
}

export function RunsChart({ runs, bytes }: { runs: Execution[]; bytes: (n: number) => string }) {
  const finished = runs
    .filter((run) => run.finished_at !== null)
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  if (finished.length === 0) return null;
  const succeeded = finished.filter((run) => run.status === 'succeeded').length;
  const failed = finished.filter((run) => FAILED.has(run.status)).length;
  return (
    <section className="card" aria-labelledby="runs-over-time">
      <h2 id="runs-over-time">Runs over time</h2>
      <p>
        {succeeded} of {finished.length} finished runs succeeded ({Math.round((succeeded / finished.length) * 100)}%),{' '}
        {failed} failed or cancelled.
      </p>
      <RunBars
        label="Rows written per run"
        runs={finished}
        value={(run) => run.rows_written}
        format={(n) => n.toLocaleString()}
      />
      <RunBars label="Bytes written per run" runs={finished} value={(run) => run.bytes_written} format={bytes} />
    </section>
  );
}
