/** Starting a sync run from the tests of alert rules: a stream copied (or missing, to fail) into a table. */
import type { TestApp } from '../support/app.js';
import { api } from '../support/http.js';
import type { Execution } from '../support/runs.js';

export async function startSync(
  t: TestApp,
  token: string,
  run: { projectId: string; sourceId: string; destinationId: string; stream: string; table: string },
): Promise<Execution> {
  const started = await api<Execution>(t, 'POST', '/api/v1/executions', {
    token,
    body: {
      kind: 'sync',
      project_id: run.projectId,
      source_connector_id: run.sourceId,
      destination_connector_id: run.destinationId,
      streams: [{ name: run.stream, destination_name: run.table, mode: 'overwrite' }],
    },
  });
  if (started.status !== 201)
    throw new Error(`starting a sync failed: ${started.status} ${JSON.stringify(started.body)}`);
  return started.body;
}
