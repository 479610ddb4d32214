/**
 * The lag of the last hour as a line (SVG, no library: one series of at most a few hundred points):
 * time across, the lag up, the largest value and the latest one written beside it. The chart is an
 * image with a text equivalent (its aria-label) for screen readers.
 */
export interface LagPoint {
  at: string;
  value: number | null;
}

const WIDTH = 600;
const HEIGHT = 120;
const PAD = 4;

export function LagChart({ points, what, unit }: { points: LagPoint[]; what: string; unit: string }) {
  const known = points.filter((p): p is { at: string; value: number } => p.value !== null);
  if (known.length === 0) return <p className="empty">No lag recorded in the last hour.</p>;
  const times = known.map((p) => Date.parse(p.at));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const top = Math.max(...known.map((p) => p.value), 1);
  const x = (t: number) => PAD + (last === first ? 0 : ((t - first) / (last - first)) * (WIDTH - 2 * PAD));
  const y = (v: number) => HEIGHT - PAD - (v / top) * (HEIGHT - 2 * PAD);
  const line = known
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(times[i]!).toFixed(1)},${y(p.value).toFixed(1)}`)
    .join(' ');
  const latest = known[known.length - 1]!.value;
  const format = (v: number) => `${v.toLocaleString(undefined, { maximumFractionDigits: 2 })} ${unit}`;
  const label = `${what} over the last hour: ${known.length} samples from ${new Date(first).toLocaleTimeString()} to ${new Date(last).toLocaleTimeString()}; now ${format(latest)}, highest ${format(top)}`;
  return (
    <figure className="lag-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} preserveAspectRatio="none">
        <line x1={PAD} x2={WIDTH - PAD} y1={HEIGHT - PAD} y2={HEIGHT - PAD} className="axis" />
        <path d={line} className="series" vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="muted">
        {what}: now {format(latest)}, highest {format(top)} (last hour)
      </figcaption>
    </figure>
  );
}
