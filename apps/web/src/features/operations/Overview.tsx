import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { QueryState } from '../../components/QueryState';
import { GettingStarted } from './GettingStarted';

const STATUSES = ['queued', 'running', 'succeeded', 'partially_failed', 'failed', 'cancelled'] as const;

/** A bar chart as SVG, with the figures also in its accessible description. */
function Bars({ label, values }: { label: string; values: Array<{ name: string; value: number }> }) {
  const max = Math.max(1, ...values.map((v) => v.value));
  const width = 24;
  return (
    <figure className="chart">
      <svg
        role="img"
        aria-label={`${label}: ${values.map((v) => `${v.name} ${v.value}`).join(', ')}`}
        viewBox={`0 0 ${values.length * width} 100`}
        preserveAspectRatio="none"
      >
        {values.map((v, i) => (
          <rect
            key={v.name}
            x={i * width + 3}
            width={width - 6}
            y={100 - (v.value / max) * 100}
            height={(v.value / max) * 100}
          >
            <title>{`${v.name}: ${v.value}`}</title>
          </rect>
        ))}
      </svg>
      <figcaption>{label}</figcaption>
    </figure>
  );
}

/** A count the caller may not read (null) is shown as a dash, not as zero. */
const shownCount = (count: number | null) =>
  count === null ? <span title="Not readable with your role">—</span> : count;

export function Overview() {
  const overview = useQuery({ queryKey: ['overview'], queryFn: () => unwrap(api.GET('/api/v1/overview')) });
  // Projects whose getting-started guide was begun: it stays until its sync is done.
  const [guided, setGuided] = useState<string[]>([]);
  if (overview.isPending || overview.error) return <QueryState pending={overview.isPending} error={overview.error} />;
  if (overview.data.projects.length === 0)
    return (
      <QueryState empty="No project yet, or none you may see: an administrator creates projects and adds members." />
    );
  return (
    <div className="grid">
      {overview.data.projects.map((project) => (
        <section key={project.project_id} className="card" aria-labelledby={`project-${project.project_id}`}>
          <h2 id={`project-${project.project_id}`}>{project.project_name}</h2>
          <dl className="counts">
            <div>
              <dt>Connectors</dt>
              <dd>{shownCount(project.counts.connectors)}</dd>
            </div>
            <div>
              <dt>Pipelines</dt>
              <dd>{shownCount(project.counts.pipelines)}</dd>
            </div>
            <div>
              <dt>CDC tables</dt>
              <dd>{shownCount(project.counts.cdc_tables)}</dd>
            </div>
            <div>
              <dt>Schedules</dt>
              <dd>{shownCount(project.counts.schedules)}</dd>
            </div>
          </dl>
          {project.counts.connectors === 0 || guided.includes(project.project_id) ? (
            <GettingStarted
              projectId={project.project_id}
              onStart={() => setGuided((ids) => [...ids, project.project_id])}
            />
          ) : null}
          <Bars
            label="Executions of the last 24 hours by status"
            values={STATUSES.map((s) => ({ name: s, value: project.executions_24h[s] }))}
          />
          <Bars
            label="Rows moved per day, last 14 days"
            values={project.rows_per_day.map((d) => ({ name: d.day, value: d.rows }))}
          />
          {project.failing.length ? (
            <>
              <h3>Failing now</h3>
              <ul>
                {project.failing.map((item) => (
                  <li key={item.id}>
                    {item.name}: {item.error ?? 'failed'}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="muted">Nothing is failing.</p>
          )}
        </section>
      ))}
    </div>
  );
}
