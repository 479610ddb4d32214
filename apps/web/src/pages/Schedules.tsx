import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../ErrorNotice';

/** The schedules dashboard: next due time, last run, failures in a row, missed runs. */
export function Schedules() {
  const dashboard = useQuery({ queryKey: ['schedules-dashboard'], queryFn: () => unwrap(api.GET('/api/v1/schedules/dashboard')), refetchInterval: 5000 });
  if (dashboard.isPending) return <p aria-busy="true">Loading…</p>;
  if (dashboard.error) return <ErrorNotice error={dashboard.error} />;
  if (dashboard.data.items.length === 0) return <p className="empty">No schedules yet.</p>;
  return (
    <div className="table-wrap" tabIndex={0}>
      <table>
        <caption className="visually-hidden">Schedules</caption>
        <thead>
          <tr>
            <th scope="col">Pipeline</th>
            <th scope="col">When</th>
            <th scope="col">Next due</th>
            <th scope="col">Last run</th>
            <th scope="col">Failures in a row</th>
            <th scope="col">Missed runs</th>
          </tr>
        </thead>
        <tbody>
          {dashboard.data.items.map((item) => (
            <tr key={item.schedule_id}>
              <td>{item.pipeline_name}</td>
              <td>{item.kind === 'cron' ? `${item.cron} (${item.timezone})` : `every ${item.interval_seconds} s`}</td>
              <td>{item.paused ? 'paused' : item.next_due_at ? new Date(item.next_due_at).toLocaleString() : '—'}</td>
              <td>
                {item.last_run ? (
                  <>
                    <span className={`status ${item.last_run.status}`}>{item.last_run.status}</span>
                    {item.last_run.duration_ms !== null ? ` in ${(item.last_run.duration_ms / 1000).toFixed(1)} s` : ''}
                  </>
                ) : (
                  'never'
                )}
              </td>
              <td className={item.failures_in_a_row > 0 ? 'status failed' : undefined}>{item.failures_in_a_row}</td>
              <td>{item.missed_runs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
