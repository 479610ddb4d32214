/**
 * Lineage of the long-running runs: a CDC table (each reader's hold of the table is a run) and a
 * stream consumer, served as OpenLineage RunEvents valid against our schema of the 2-0-2 spec:
 * START when the reader or consumer starts, COMPLETE when it is stopped.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';
import { runEventErrors } from './openlineage-schema.js';

interface StoredEvent {
  run_id: string;
  event_type: string;
  event: {
    job: { name: string; facets: { jobType: { processingType: string } } };
    inputs: Array<{ namespace: string; name: string }>;
    outputs: Array<{
      namespace: string;
      name: string;
      facets: { columnLineage?: { fields: Record<string, { inputFields: Array<{ field: string }> }> } };
    }>;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PORT = Number(
  new URL(process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres').port || 5432,
);

describe('lineage of CDC tables and streams', () => {
  let t: TestApp;
  let admin: string;
  let source: TestDatabase;
  let destination: TestDatabase;
  let projectId: string;
  let sourceId: string;
  let destinationId: string;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    t = await startTestApp({
      worker: true,
      env: {
        ...NO_RATE_LIMITS,
        SVC_CDC_LEASE_SECONDS: '3',
        SVC_CDC_SOURCE_HEARTBEAT_SECONDS: '1',
        SVC_STREAMS_LEASE_SECONDS: '3',
        SVC_STREAMS_ACK_WAIT_SECONDS: '3',
      },
    });
    admin = (await adminLogin(t)).accessToken;
    source = await createTestDatabase();
    destination = await createTestDatabase();
    projectId = (await createProject(t, admin)).id;
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    destinationId = await createPostgresConnector(t, admin, projectId, 'destination', destination.name);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await t?.close();
    await query(
      source.url.replace(/\/[^/]*$/, '/postgres'),
      `select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = $1 and not active`,
      [source.name],
    ).catch(() => undefined);
    await source?.drop();
    await destination?.drop();
  });

  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(200);
    }
  };
  const eventsOf = async (itemId: string) => {
    const result = await api<{ items: StoredEvent[] }>(t, 'GET', `/api/v1/lineage/events?project_id=${projectId}`, {
      token: admin,
    });
    expect(result.status).toBe(200);
    return result.body.items.filter((e) => e.event.job.name.endsWith(`.${itemId}`));
  };

  it(
    'a CDC table: START when its reader starts, COMPLETE when stopped, column by column',
    { timeout: 120_000 },
    async () => {
      await query(source.url, 'create table accounts (id int primary key, owner text, balance numeric)');
      await query(source.url, `insert into accounts select g, 'o' || g, g from generate_series(1, 50) g`);
      expect((await api(t, 'POST', `/api/v1/data-connectors/${sourceId}/discover`, { token: admin })).status).toBe(200);
      const created = await api<{ id: string }>(t, 'POST', '/api/v1/cdc-tables', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'accounts',
          source: { connector_id: sourceId, table: 'accounts' },
          destination: { connector_id: destinationId, table: 'accounts_mirror' },
          mode: 'mirror',
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id;
      await until('a START event', async () => (await eventsOf(id)).some((e) => e.event_type === 'START'));
      await until(
        'the snapshot',
        async () =>
          (
            await query(destination.url, `select count(*)::int as n from accounts_mirror`).catch(() => ({
              rows: [{ n: 0 }],
            }))
          ).rows[0].n === 50,
      );
      await api(t, 'POST', `/api/v1/cdc-tables/${id}/stop`, { token: admin });
      await until('a COMPLETE event', async () => (await eventsOf(id)).some((e) => e.event_type === 'COMPLETE'));
      const events = await eventsOf(id);
      expect(events.map((e) => e.event_type)).toEqual(['START', 'COMPLETE']);
      for (const e of events) expect(runEventErrors(e.event), JSON.stringify(e.event)).toEqual([]);
      const complete = events[1]!.event;
      expect(complete.job.name).toBe(`cdc_table.${id}`);
      expect(complete.job.facets.jobType.processingType).toBe('STREAMING');
      expect(complete.inputs).toEqual([
        expect.objectContaining({ namespace: `postgres://127.0.0.1:${PORT}`, name: `${source.name}.public.accounts` }),
      ]);
      expect(complete.outputs[0]).toMatchObject({ name: `${destination.name}.public.accounts_mirror` });
      expect(complete.outputs[0]!.facets.columnLineage!.fields['balance']!.inputFields).toEqual([
        expect.objectContaining({ field: 'balance' }),
      ]);
    },
  );

  it('a stream: START when its consumer starts, COMPLETE when stopped', { timeout: 120_000 }, async () => {
    const key = uniqueName('svc_lineage_events');
    const redis = new Redis({ host: '127.0.0.1', port: 6379 });
    cleanups.push(async () => {
      await redis.del(key);
      redis.disconnect();
    });
    for (let i = 1; i <= 20; i++) await redis.xadd(key, '*', 'kind', 'click', 'n', String(i));
    const connector = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: { project_id: projectId, name: 'redis', kind: 'redis_streams', config: { host: '127.0.0.1', port: 6379 } },
    });
    expect(connector.status).toBe(201);
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/streams', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'clicks',
        source_connector_id: connector.body.id,
        source: { name: key },
        destination_connector_id: destinationId,
        table: 'clicks',
        start: true,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    await until(
      '20 rows',
      async () =>
        (await query(destination.url, `select count(*)::int as n from clicks`).catch(() => ({ rows: [{ n: 0 }] })))
          .rows[0].n === 20,
    );
    await api(t, 'POST', `/api/v1/streams/${id}/stop`, { token: admin });
    await until('a COMPLETE event', async () => (await eventsOf(id)).some((e) => e.event_type === 'COMPLETE'));
    const events = await eventsOf(id);
    expect(events.map((e) => e.event_type)).toEqual(['START', 'COMPLETE']);
    for (const e of events) expect(runEventErrors(e.event), JSON.stringify(e.event)).toEqual([]);
    expect(events[1]!.event.inputs).toEqual([
      expect.objectContaining({ namespace: 'redis://127.0.0.1:6379', name: key }),
    ]);
    expect(events[1]!.event.outputs).toEqual([
      expect.objectContaining({ namespace: `postgres://127.0.0.1:${PORT}`, name: `${destination.name}.public.clicks` }),
    ]);
  });
});
