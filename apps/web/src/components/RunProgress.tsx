/**
 * A running execution's progress: a bar against what the item's last succeeded run read (else a
 * bar without an end), the rows read and per second, and the time left when there is an estimate.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

type Execution = paths['/api/v1/executions/{id}']['get']['responses'][200]['content']['application/json'];

/** "about 2 min left", rounded to what a person would say. */
export function timeLeft(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const hours = Math.floor(seconds / 3600);
  return `about ${hours} h ${Math.round((seconds - hours * 3600) / 60)} min left`;
}

export function RunProgress({ run }: { run: Execution }) {
  const progress = run.progress;
  const expected = progress?.rows_expected ?? null;
  // Past the last run's rows the bar stays full; the estimate is then gone.
  const bar =
    expected && expected > 0 ? (
      <progress aria-label="Progress of the run" value={Math.min(run.rows_read, expected)} max={expected} />
    ) : (
      <progress aria-label="Progress of the run" />
    );
  const parts = [
    `${run.rows_read.toLocaleString()} rows read${expected ? ` of about ${expected.toLocaleString()}` : ''}`,
    `${run.rows_written.toLocaleString()} written`,
    progress?.rows_per_second !== null && progress?.rows_per_second !== undefined
      ? `${progress.rows_per_second.toLocaleString()} rows/s`
      : run.status === 'queued'
        ? 'waiting to start'
        : null,
    progress?.seconds_left !== null && progress?.seconds_left !== undefined ? timeLeft(progress.seconds_left) : null,
  ].filter(Boolean);
  return (
    <p className="run-progress">
      {bar} <span>{parts.join(', ')}</span>
    </p>
  );
}

/** The progress of one execution, polled every second while it runs. */
export function LiveRunProgress({ id }: { id: string }) {
  const run = useQuery({
    queryKey: ['execution', id],
    queryFn: () => unwrap(api.GET('/api/v1/executions/{id}', { params: { path: { id } } })),
    // Until it ends, or the API refuses it (deleted, no longer readable).
    refetchInterval: (query) =>
      query.state.error ||
      (query.state.data && query.state.data.status !== 'queued' && query.state.data.status !== 'running')
        ? false
        : 1000,
  });
  return run.data ? <RunProgress run={run.data} /> : <progress aria-label="Progress of the run" />;
}
