/**
 * Lineage of real runs: a pipeline with derive, rename, flatten and cast (column level), a sync,
 * served as OpenLineage 2-0-2 RunEvents valid against our schema of the specification; the graph
 * and column queries, confined to the node's project; forwarding to a loopback OpenLineage receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../alerting/receivers.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';
import { memberOf } from '../security/fixtures.js';
import { runEventErrors } from './openlineage-schema.js';

interface StoredEvent {
  id: string;
  run_id: string;
  event_type: string;
  event: {
    eventType: string;
    run: { runId: string; facets: Record<string, Record<string, unknown>> };
    job: { namespace: string; name: string };
    inputs: Array<{ namespace: string; name: string; facets: Record<string, unknown> }>;
    outputs: Array<{
      namespace: string;
      name: string;
      facets: {
        columnLineage?: { fields: Record<string, { inputFields: Array<{ name: string; field: string }> }> };
        schema?: { fields: Array<{ name: string }> };
      };
      outputFacets?: { outputStatistics?: { rowCount: number } };
    }>;
  };
}
interface Graph {
  project_id: string;
  nodes: Array<{
    id: string;
    type: string;
    namespace: string;
    name: string;
    project_id: string;
    item_id: string | null;
  }>;
  edges: Array<{ from: string; to: string }>;
}

const PORT = Number(
  new URL(process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres').port || 5432,
);

describe('lineage', () => {
  let t: TestApp;
  let admin: string;
  let source: TestDatabase;
  let destination: TestDatabase;
  let projectId: string;
  let sourceId: string;
  let destinationId: string;
  let pipelineRun: Execution;
  let pipelineId: string;
  let receiver: HttpReceiver;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true, leader: true });
    admin = (await adminLogin(t)).accessToken;
    source = await createTestDatabase();
    destination = await createTestDatabase();
    projectId = (await createProject(t, admin)).id;
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    destinationId = await createPostgresConnector(t, admin, projectId, 'warehouse', destination.name);
    await query(
      source.url,
      'create table orders (id bigint primary key, customer text, email text, amount numeric(12,2), meta jsonb)',
    );
    await query(
      source.url,
      `insert into orders select g, 'customer ' || (g % 7), 'u' || g || '@example.com', g * 0.5,
              jsonb_build_object('tier', case when g % 2 = 0 then 'gold' else 'silver' end, 'score', g % 5)
         from generate_series(1, 200) g`,
    );
    const discovered = await api(t, 'POST', `/api/v1/data-connectors/${sourceId}/discover`, { token: admin });
    expect(discovered.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await source?.drop();
    await destination?.drop();
  });

  const events = async (params: Record<string, string>, token = admin) => {
    const result = await api<{ items: StoredEvent[] }>(
      t,
      'GET',
      `/api/v1/lineage/events?${new URLSearchParams(params).toString()}`,
      { token },
    );
    expect(result.status).toBe(200);
    return result.body.items;
  };
  const expectValid = (items: StoredEvent[]) => {
    for (const item of items) expect(runEventErrors(item.event), JSON.stringify(item.event)).toEqual([]);
  };

  it('records a pipeline run with column lineage through derive, rename, flatten and cast', async () => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'orders clean',
        sources: [{ connector_id: sourceId, dataset: 'orders' }],
        transforms: [
          { type: 'derive', column: 'amount_with_tax', expression: 'round(amount * 1.2, 2)' },
          { type: 'derive', column: 'label', expression: "concat(customer, '-', id)" },
          { type: 'flatten', column: 'meta', paths: ['tier'] },
          { type: 'rename', columns: { customer: 'customer_name' } },
          { type: 'cast', columns: { id: 'int32' } },
          { type: 'drop', columns: ['email'] },
        ],
        destination: { connector_id: destinationId, table: 'orders_clean', mode: 'overwrite' },
      },
    });
    expect(created.status).toBe(201);
    pipelineId = created.body.id;
    const started = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${pipelineId}/run`, { token: admin });
    pipelineRun = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
    expect(pipelineRun.status).toBe('succeeded');

    const items = await events({ run_id: pipelineRun.id });
    expect(items.map((e) => e.event_type)).toEqual(['START', 'COMPLETE']);
    expectValid(items);
    const complete = items[1]!.event;
    expect(complete.run.runId).toBe(pipelineRun.id);
    expect(complete.job).toEqual({
      namespace: `svc.${projectId}`,
      name: `pipeline.${pipelineId}`,
      facets: expect.anything(),
    });
    expect(complete.inputs.map((i) => [i.namespace, i.name])).toEqual([
      [`postgres://127.0.0.1:${PORT}`, `${source.name}.public.orders`],
    ]);
    const output = complete.outputs[0]!;
    expect([output.namespace, output.name]).toEqual([
      `postgres://127.0.0.1:${PORT}`,
      `${destination.name}.public.orders_clean`,
    ]);
    expect(output.outputFacets?.outputStatistics?.rowCount).toBe(200);
    const lineage = output.facets.columnLineage!.fields;
    const inputsOf = (column: string) => lineage[column]?.inputFields.map((f) => f.field).sort();
    expect(inputsOf('amount_with_tax')).toEqual(['amount']);
    expect(inputsOf('label')).toEqual(['customer', 'id']);
    expect(inputsOf('customer_name')).toEqual(['customer']);
    expect(inputsOf('meta_tier')).toEqual(['meta']);
    expect(inputsOf('id')).toEqual(['id']);
    expect(lineage['email']).toBeUndefined();
    expect(lineage['meta']).toBeUndefined();
    expect(lineage['customer']).toBeUndefined();
    expect(lineage['amount_with_tax']!.inputFields[0]).toMatchObject({
      name: `${source.name}.public.orders`,
      transformations: [{ type: 'DIRECT', subtype: 'TRANSFORMATION' }],
    });
  });

  it('records a sync column by column (as discovery knows the source) and ends a failed run with FAIL', async () => {
    const start = (streams: unknown[]) =>
      api<Execution>(t, 'POST', '/api/v1/executions', {
        token: admin,
        body: {
          kind: 'sync',
          project_id: projectId,
          source_connector_id: sourceId,
          destination_connector_id: destinationId,
          streams,
        },
      });
    const started = await start([{ name: 'orders', destination_name: 'orders_copy', mode: 'overwrite' }]);
    expect(started.status).toBe(201);
    const done = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    const items = await events({ run_id: done.id });
    expect(items.map((e) => e.event_type)).toEqual(['START', 'COMPLETE']);
    expectValid(items);
    const output = items[1]!.event.outputs[0]!;
    expect(output.name).toBe(`${destination.name}.public.orders_copy`);
    expect(output.facets.schema!.fields.map((f) => f.name)).toEqual(['id', 'customer', 'email', 'amount', 'meta']);
    expect(output.facets.columnLineage!.fields['email']!.inputFields).toEqual([
      expect.objectContaining({ name: `${source.name}.public.orders`, field: 'email' }),
    ]);

    const missing = await start([{ name: 'no_such_table', mode: 'overwrite' }]);
    const failed = await waitForStatus(t, admin, missing.body.id, ['succeeded', 'failed'], 90_000);
    expect(failed.status).toBe('failed');
    const failEvents = await events({ run_id: failed.id });
    expect(failEvents.map((e) => e.event_type)).toEqual(['START', 'FAIL']);
    expectValid(failEvents);
    expect(failEvents[1]!.event.run.facets.errorMessage).toMatchObject({ programmingLanguage: 'TypeScript' });
  });

  it('answers graph queries upstream and downstream within the depth, and the lineage of one column', async () => {
    const graph = await api<Graph>(t, 'GET', `/api/v1/lineage/graph?node=item:${pipelineId}&direction=both&depth=1`, {
      token: admin,
    });
    expect(graph.status).toBe(200);
    const names = graph.body.nodes.map((n) => n.name).sort();
    expect(names).toEqual(
      [`${destination.name}.public.orders_clean`, `${source.name}.public.orders`, `pipeline.${pipelineId}`].sort(),
    );
    const sourceNode = graph.body.nodes.find((n) => n.name.endsWith('.orders'))!;
    const target = graph.body.nodes.find((n) => n.name.endsWith('.orders_clean'))!;
    const job = graph.body.nodes.find((n) => n.type === 'job')!;
    expect(graph.body.edges).toEqual(
      expect.arrayContaining([
        { from: sourceNode.id, to: job.id },
        { from: job.id, to: target.id },
      ]),
    );

    // Downstream of the source: both the pipeline's and the sync's outputs at depth 2, nothing at depth 0.
    const downstream = await api<Graph>(
      t,
      'GET',
      `/api/v1/lineage/graph?node=${sourceNode.id}&direction=downstream&depth=2`,
      {
        token: admin,
      },
    );
    expect(downstream.body.nodes.map((n) => n.name)).toEqual(
      expect.arrayContaining([`${destination.name}.public.orders_clean`, `${destination.name}.public.orders_copy`]),
    );
    const upstreamOfSource = await api<Graph>(
      t,
      'GET',
      `/api/v1/lineage/graph?node=${sourceNode.id}&direction=upstream&depth=3`,
      {
        token: admin,
      },
    );
    expect(upstreamOfSource.body.nodes.map((n) => n.id)).toEqual([sourceNode.id]);
    const zero = await api<Graph>(t, 'GET', `/api/v1/lineage/graph?node=${sourceNode.id}&depth=0`, { token: admin });
    expect(zero.body.edges).toEqual([]);
    const tooDeep = await api(t, 'GET', `/api/v1/lineage/graph?node=${sourceNode.id}&depth=50`, { token: admin });
    expect(tooDeep.status).toBe(422);
    expect(JSON.stringify(tooDeep.body)).toContain('depth');
    const badNode = await api(t, 'GET', `/api/v1/lineage/graph?node=table:x`, { token: admin });
    expect(badNode.status).toBe(422);
    expect(JSON.stringify(badNode.body)).toContain('node');

    const datasetId = target.id.slice('dataset:'.length);
    const column = await api<{ items: Array<{ field: string; inputs: Array<{ field: string; name: string }> }> }>(
      t,
      'GET',
      `/api/v1/lineage/columns?dataset=${datasetId}&column=label`,
      { token: admin },
    );
    expect(column.status).toBe(200);
    expect(column.body.items[0]!.inputs.map((i) => i.field).sort()).toEqual(['customer', 'id']);
    expect(column.body.items.map((i) => i.field).sort()).toEqual(['customer', 'id', 'label']);
  });

  it("never shows another project's nodes or events", async () => {
    const other = (await createProject(t, admin)).id;
    const outsider = await memberOf(t, admin, other, 'editor');
    const token = outsider.session.accessToken;
    // The other project copies the same source table: its own nodes, never project A's.
    const otherSource = await createPostgresConnector(t, admin, other, 'source', source.name);
    const otherDestination = await createPostgresConnector(t, admin, other, 'dest', destination.name);
    const started = await api<Execution>(t, 'POST', '/api/v1/executions', {
      token,
      body: {
        kind: 'sync',
        project_id: other,
        source_connector_id: otherSource,
        destination_connector_id: otherDestination,
        streams: [{ name: 'orders', destination_name: 'orders_b', mode: 'overwrite' }],
      },
    });
    expect(started.status).toBe(201);
    expect((await waitForStatus(t, token, started.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');

    const mine = await events({}, token);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.event.run.facets.svc_run!.projectId === other)).toBe(true);
    const denied = await api(t, 'GET', `/api/v1/lineage/events?project_id=${projectId}`, { token });
    expect([403, 404]).toContain(denied.status);
    expect(
      (await api(t, 'GET', `/api/v1/lineage/graph?node=item:${pipelineId}`, { token })).status,
    ).toBeGreaterThanOrEqual(403);

    const bJob = mine[0]!.event.job.name.slice('sync.'.length);
    const graph = await api<Graph>(t, 'GET', `/api/v1/lineage/graph?node=item:${encodeURIComponent(bJob)}&depth=10`, {
      token,
    });
    expect(graph.status).toBe(200);
    expect(graph.body.nodes.length).toBe(3);
    expect(graph.body.nodes.every((n) => n.project_id === other)).toBe(true);
    // The same source table is a node of each project, joined to its own project's runs only.
    const sourceNode = graph.body.nodes.find((n) => n.name === `${source.name}.public.orders`)!;
    const around = await api<Graph>(t, 'GET', `/api/v1/lineage/graph?node=${sourceNode.id}&depth=10`, { token });
    expect(around.body.nodes.map((n) => n.name)).not.toContain(`${destination.name}.public.orders_clean`);
    // The admin sees project A's source node with A's runs only.
    const aGraph = await api<Graph>(t, 'GET', `/api/v1/lineage/graph?node=item:${pipelineId}&depth=10`, {
      token: admin,
    });
    expect(aGraph.body.nodes.every((n) => n.project_id === projectId)).toBe(true);
    expect(aGraph.body.nodes.map((n) => n.name)).not.toContain(`${destination.name}.public.orders_b`);
  });

  it("records an export: the source dataset in, each file it wrote out, column by column, as the export's job", async () => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'orders to a file',
        source: { kind: 'connector', connector_id: sourceId, dataset: 'orders' },
        destination: { kind: 'files', folder: 'lineage' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const started = await api<Execution>(t, 'POST', `/api/v1/exports/${created.body.id}/run`, { token: admin });
    expect((await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    const runs = await api<{ items: Array<{ files: Array<{ name: string }> }> }>(
      t,
      'GET',
      `/api/v1/exports/${created.body.id}/runs`,
      { token: admin },
    );
    const file = runs.body.items[0]!.files[0]!.name;

    const items = await events({ run_id: started.body.id });
    expect(items.map((e) => e.event_type)).toEqual(['START', 'COMPLETE']);
    expectValid(items);
    const complete = items[1]!.event;
    expect(complete.job.name).toBe(`export.${created.body.id}`);
    expect(complete.inputs.map((i) => [i.namespace, i.name])).toEqual([
      [`postgres://127.0.0.1:${PORT}`, `${source.name}.public.orders`],
    ]);
    expect(complete.outputs).toHaveLength(1);
    const output = complete.outputs[0]!;
    expect(output.namespace).toMatch(/^file:\/\//);
    expect(output.name.endsWith(`/${projectId}/${file}`)).toBe(true);
    expect(output.outputFacets?.outputStatistics?.rowCount).toBe(200);
    expect(output.facets.columnLineage!.fields['amount']!.inputFields.map((f) => f.field)).toEqual(['amount']);
    // The export's runs are one job in the graph: the source feeds it, it feeds the file.
    const graph = await api<Graph>(t, 'GET', `/api/v1/lineage/graph?node=item:${created.body.id}&depth=1`, {
      token: admin,
    });
    expect(graph.body.nodes.filter((n) => n.type === 'job').map((n) => n.item_id)).toEqual([created.body.id]);
    expect(graph.body.nodes.filter((n) => n.type === 'dataset')).toHaveLength(2);
  });

  it('forwards the events to an external OpenLineage endpoint set by an administrator', async () => {
    const editor = await memberOf(t, admin, projectId, 'editor');
    const refused = await api(t, 'PUT', '/api/v1/lineage/forwarding', {
      token: editor.session.accessToken,
      body: { enabled: true, url: `${receiver.url}/api/v1/lineage` },
    });
    expect(refused.status).toBe(403);
    const invalid = await api(t, 'PUT', '/api/v1/lineage/forwarding', {
      token: admin,
      body: { enabled: true, url: 'ftp://x' },
    });
    expect(invalid.status).toBe(422);
    const saved = await api<{ enabled: boolean; has_api_key: boolean }>(t, 'PUT', '/api/v1/lineage/forwarding', {
      token: admin,
      body: { enabled: true, url: `${receiver.url}/api/v1/lineage`, api_key: 'marquez-key-123' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ enabled: true, has_api_key: true });
    expect(JSON.stringify(saved.body)).not.toContain('marquez-key-123');

    const started = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${pipelineId}/run`, { token: admin });
    const done = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    const deadline = Date.now() + 20_000;
    while (
      receiver.on('/api/v1/lineage').filter((r) => (r.body.run as { runId: string }).runId === done.id).length < 2
    ) {
      if (Date.now() > deadline) throw new Error(`not forwarded: ${JSON.stringify(receiver.received.length)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const forwarded = receiver.on('/api/v1/lineage');
    // History before forwarding was enabled is not sent; the run's events are, in order, with the key.
    expect(forwarded.every((r) => (r.body.run as { runId: string }).runId === done.id)).toBe(true);
    expect(forwarded.map((r) => r.body.eventType)).toEqual(['START', 'COMPLETE']);
    expect(forwarded[0]!.headers.authorization).toBe('Bearer marquez-key-123');
    for (const r of forwarded) expect(runEventErrors(r.body)).toEqual([]);
    expect(t.logText()).not.toContain('marquez-key-123');
  });
});
