/**
 * Retention policies against the real PostgreSQL: the rules and their 422s, the audit floor, the
 * execution history with keep_last_failed, a large warehouse table swept in bounded batches while a
 * writer keeps writing (200,000 rows here; the 1,000,000 is the benchmark's), archive to the
 * project's files folder, preview = deleted, and project isolation.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSchemaName } from '../../src/areas/connectivity/warehouse.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { query } from '../support/runs.js';

interface Sweep {
  id: string;
  status: string;
  execution_id: string | null;
  counts: Record<string, number>;
  total: number;
  batches: number;
  details: Record<string, unknown>;
  error: string | null;
}
interface Preview {
  counts: Record<string, number>;
  total: number;
  cutoff: string;
}
interface ErrorBody {
  detail: string;
  errors?: Array<{ path: string; message: string }>;
}

const DAY = 86_400_000;

describe('retention policies', () => {
  let t: TestApp;
  let admin: string;
  let project: string;
  let other: string;
  let editor: string;
  let outsider: string;
  let warehouseUrl: string;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ...NO_RATE_LIMITS,
        SVC_RETENTION_BATCH_ROWS: '2000',
        SVC_RETENTION_AUDIT_FLOOR_DAYS: '90',
        SVC_RETENTION_TICK_SECONDS: '1',
      },
      worker: true,
      leader: true,
    });
    admin = (await adminLogin(t)).accessToken;
    project = (await createProject(t, admin)).id;
    other = (await createProject(t, admin)).id;
    for (const [projectId, role, assign] of [
      [project, 'editor', (s: string) => (editor = s)],
      [other, 'editor', (s: string) => (outsider = s)],
    ] as const) {
      const user = await createUser(t, admin);
      await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${user.id}`, { token: admin, body: { role } });
      assign(user.session.accessToken);
    }
    warehouseUrl = t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (token: string, body: Record<string, unknown>) =>
    api<Record<string, unknown> & ErrorBody & { id: string }>(t, 'POST', '/api/v1/retention-policies', {
      token,
      body,
    });
  const preview = async (token: string, id: string) => {
    const result = await api<Preview>(t, 'POST', `/api/v1/retention-policies/${id}/preview`, { token });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body;
  };
  const run = async (token: string, id: string) => {
    const result = await api<Sweep>(t, 'POST', `/api/v1/retention-policies/${id}/run`, { token });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body;
  };
  const sweepDone = async (token: string, policyId: string, sweepId: string, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = await api<{ items: Sweep[] }>(t, 'GET', `/api/v1/retention-policies/${policyId}/sweeps`, { token });
      const sweep = list.body.items.find((s) => s.id === sweepId || s.execution_id === sweepId);
      if (sweep && ['succeeded', 'failed'].includes(sweep.status)) return sweep;
      if (Date.now() > deadline) throw new Error(`sweep still ${JSON.stringify(sweep)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  /** A table in the project's warehouse schema `main`, owned by the project's role. */
  const warehouseTable = async (name: string, ddl: string) => {
    // Naming a missing table makes the service create the project's role and schema, and says which field is wrong.
    const missing = await create(editor, {
      project_id: project,
      name: `probe ${name}`,
      target: { kind: 'warehouse_table', table: name, timestamp_column: 'ts' },
      max_age: '30d',
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.map((e) => e.path)).toEqual(['target.table']);
    const schema = projectSchemaName(project, 'main');
    const owner = (
      await query(warehouseUrl, 'select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = $1', [
        schema,
      ])
    ).rows[0].owner as string;
    await query(warehouseUrl, `create table "${schema}"."${name}" ${ddl}`);
    await query(warehouseUrl, `alter table "${schema}"."${name}" owner to "${owner}"`);
    return `"${schema}"."${name}"`;
  };

  it('answers 422 naming the field for a bad policy', async () => {
    const base = { project_id: project, name: 'bad', target: { kind: 'execution_history' }, max_age: '30d' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, max_age: 'thirty days' }, 'max_age'],
      [{ ...base, target: { kind: 'tea_leaves' } }, 'target.kind'],
      [{ ...base, target: { kind: 'warehouse_table', table: 'x' } }, 'target.timestamp_column'],
      [{ ...base, target: { kind: 'warehouse_table', table: 'x; drop', timestamp_column: 'ts' } }, 'target.table'],
      [
        { ...base, target: { kind: 'warehouse_table', table: 'x', timestamp_column: 'ts' }, keep_last_failed: 2 },
        'keep_last_failed',
      ],
      [{ ...base, cron: 'every tuesday' }, 'cron'],
      [{ ...base, max_rows: 0 }, 'max_rows'],
      [{ ...base, project_id: undefined }, 'project_id'],
    ];
    for (const [body, field] of cases) {
      const result = await create(editor, body);
      expect(result.status, `${field}: ${JSON.stringify(result.body)}`).toBe(422);
      expect(
        result.body.errors?.map((e) => e.path),
        JSON.stringify(result.body),
      ).toContain(field);
    }
    const good = await create(editor, {
      ...base,
      name: 'nightly history',
      cron: '0 3 * * *',
      timezone: 'Europe/Berlin',
    });
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    expect(good.body).toMatchObject({ max_age: '30d', max_age_seconds: 30 * 86_400, keep_last_failed: 0 });
    expect(Date.parse(good.body['next_run_at'] as string)).toBeGreaterThan(Date.now());
    const duplicate = await create(editor, { ...base, name: 'nightly history' });
    expect(duplicate.status).toBe(409);
    const changed = await api(t, 'PATCH', `/api/v1/retention-policies/${good.body.id}`, {
      token: editor,
      body: { max_age: '2w', interval_seconds: 3600 },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ max_age: '2w', cron: null, interval_seconds: 3600 });
    expect((await api(t, 'DELETE', `/api/v1/retention-policies/${good.body.id}`, { token: editor })).status).toBe(204);
    expect((await api(t, 'GET', `/api/v1/retention-policies/${good.body.id}`, { token: editor })).status).toBe(404);
  });

  it('keeps audit events to administrators, never below the floor', async () => {
    const body = { name: 'audit trail', target: { kind: 'audit_events' }, max_age: '30d' };
    const byEditor = await create(editor, { ...body, project_id: project });
    expect(byEditor.status).toBe(403);
    const belowFloor = await create(admin, body);
    expect(belowFloor.status).toBe(422);
    expect(belowFloor.body.errors?.map((e) => e.path)).toEqual(['max_age']);
    const policy = await create(admin, { ...body, max_age: '100d', max_rows: 1 });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    expect((await api(t, 'GET', `/api/v1/retention-policies/${policy.body.id}`, { token: editor })).status).toBe(403);
    const listed = await api<{ items: Array<{ id: string }> }>(t, 'GET', '/api/v1/retention-policies', {
      token: editor,
    });
    expect(listed.body.items.map((p) => p.id)).not.toContain(policy.body.id);

    // Old events (inserted as the database owner: the log refuses updates and deletes, not inserts).
    const marker = `retention-test-${Date.now()}`;
    for (const days of [400, 200, 95, 50, 1])
      await query(
        t.config.db.url!,
        `insert into audit_log (kind, occurred_at, details) values ($1, now() - make_interval(days => $2), '{}')`,
        [marker, days],
      );
    // Outside a sweep the log stays append-only.
    await expect(query(t.config.db.url!, 'delete from audit_log where kind = $1', [marker])).rejects.toThrow(
      /append-only/,
    );
    const before = await preview(admin, policy.body.id);
    // max_rows = 1 would take everything but the newest event; the floor (90 days) still keeps 50 and 1.
    expect(Date.now() - Date.parse(before.cutoff)).toBeGreaterThanOrEqual(90 * DAY - 60_000);
    const sweep = await run(admin, policy.body.id);
    expect(sweep.execution_id).toBeNull();
    const done = await sweepDone(admin, policy.body.id, sweep.id);
    expect(done.status, done.error ?? '').toBe('succeeded');
    expect(done.counts).toEqual(before.counts);
    const left = await query(
      t.config.db.url!,
      `select extract(day from now() - occurred_at)::int as age from audit_log where kind = $1 order by occurred_at`,
      [marker],
    );
    expect(left.rows.map((r) => r.age)).toEqual([50, 1]);
    expect(
      (
        await query(t.config.db.url!, 'select count(*)::int as n from audit_log where occurred_at < $1', [
          before.cutoff,
        ])
      ).rows[0].n,
    ).toBe(0);
  });

  it('sweeps the execution history as an execution, keeping the last failures, preview = deleted', async () => {
    const url = t.config.db.url!;
    // Finished executions of the project, 60 days old: 6 succeeded, 4 failed; 2 recent ones; each with 3 log lines.
    const ids: Record<string, string[]> = { old_ok: [], old_failed: [], recent: [] };
    const make = async (group: string, status: string, ageDays: number, i: number) => {
      const row = await query(
        url,
        `insert into executions (project_id, kind, status, params, created_at, started_at, finished_at)
         values ($1, 'sync', $2, '{}', now() - make_interval(days => $3, secs => $4), now() - make_interval(days => $3, secs => $4),
                 now() - make_interval(days => $3, secs => $4)) returning id`,
        [project, status, ageDays, 100 - i],
      );
      const id = row.rows[0].id as string;
      await query(
        url,
        `insert into execution_logs (execution_id, level, message) select $1, 'info', 'line ' || g from generate_series(1, 3) g`,
        [id],
      );
      ids[group]!.push(id);
    };
    for (let i = 0; i < 6; i += 1) await make('old_ok', 'succeeded', 60, i);
    for (let i = 0; i < 4; i += 1) await make('old_failed', 'failed', 60, i + 10);
    for (let i = 0; i < 2; i += 1) await make('recent', 'succeeded', 1, i);
    // The other project's old history is not this policy's.
    const foreign = await query(
      url,
      `insert into executions (project_id, kind, status, params, created_at, finished_at)
       values ($1, 'sync', 'succeeded', '{}', now() - interval '90 days', now() - interval '90 days') returning id`,
      [other],
    );

    const policy = await create(editor, {
      project_id: project,
      name: 'history',
      target: { kind: 'execution_history' },
      max_age: '30d',
      keep_last_failed: 2,
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const before = await preview(editor, policy.body.id);
    expect(before.counts).toEqual({ execution_logs: 8 * 3, execution_ranges: 0, executions: 8 });

    const sweep = await run(editor, policy.body.id);
    expect(sweep.execution_id).toBeTruthy();
    const done = await sweepDone(editor, policy.body.id, sweep.id);
    expect(done.status, done.error ?? '').toBe('succeeded');
    expect(done.counts).toEqual(before.counts);
    const execution = await api<{ kind: string; status: string; rows_written: number }>(
      t,
      'GET',
      `/api/v1/executions/${sweep.execution_id}`,
      { token: editor },
    );
    expect(execution.body).toMatchObject({ kind: 'retention_sweep', status: 'succeeded', rows_written: 32 });

    const left = await query(url, 'select id from executions where id = any($1::uuid[])', [
      [...ids.old_ok!, ...ids.old_failed!, ...ids.recent!, foreign.rows[0].id],
    ]);
    const kept = new Set(left.rows.map((r) => r.id as string));
    // The newest two failures (the last created) survive, with the recent runs and the other project's.
    expect([...kept].sort()).toEqual(
      [...ids.old_failed!.slice(2), ...ids.recent!, foreign.rows[0].id as string].sort(),
    );
    expect((await preview(editor, policy.body.id)).total).toBe(0);
  });

  it('prunes old log lines alone, keeping the runs and the lines of the last failure', async () => {
    const url = t.config.db.url!;
    // A project of its own, so the history test's runs do not count here.
    const own = (await createProject(t, admin)).id;
    const oldRun = async (status: string) => {
      const row = await query(
        url,
        `insert into executions (project_id, kind, status, params, created_at, finished_at)
         values ($1, 'sync', $2, '{}', now() - interval '50 days', now() - interval '50 days') returning id`,
        [own, status],
      );
      const id = row.rows[0].id as string;
      // Four old lines and one written yesterday.
      await query(
        url,
        `insert into execution_logs (execution_id, ts, level, message)
         select $1, now() - make_interval(days => case when g = 5 then 1 else 50 end), 'info', 'line' from generate_series(1, 5) g`,
        [id],
      );
      return id;
    };
    const succeeded = await oldRun('succeeded');
    const failed = await oldRun('failed');
    const refused = await create(admin, {
      project_id: own,
      name: 'lines',
      target: { kind: 'execution_logs' },
      max_age: '30d',
      max_rows: 10,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.map((e) => e.path)).toEqual(['max_rows']);
    const policy = await create(admin, {
      project_id: own,
      name: 'lines',
      target: { kind: 'execution_logs' },
      max_age: '30d',
      keep_last_failed: 1,
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const before = await preview(admin, policy.body.id);
    expect(before.counts).toEqual({ execution_logs: 4 });
    const done = await sweepDone(admin, policy.body.id, (await run(admin, policy.body.id)).id);
    expect(done.counts).toEqual(before.counts);
    const lines = await query(
      url,
      'select execution_id, count(*)::int as n from execution_logs where execution_id = any($1::uuid[]) group by 1',
      [[succeeded, failed]],
    );
    expect(Object.fromEntries(lines.rows.map((r) => [r.execution_id, r.n]))).toEqual({ [succeeded]: 1, [failed]: 5 });
    expect(
      (await query(url, 'select count(*)::int as n from executions where id = any($1::uuid[])', [[succeeded, failed]]))
        .rows[0].n,
    ).toBe(2);
  });

  it('sweeps a 200,000-row warehouse table in short batches while a writer stays under 1 s, preview = deleted', async () => {
    const table = await warehouseTable('events', '(id bigserial primary key, ts timestamptz not null, payload text)');
    await query(warehouseUrl, `create index on ${table} (ts)`);
    // 150,000 expired rows (40 to 70 days old) and 50,000 recent ones.
    await query(
      warehouseUrl,
      `insert into ${table} (ts, payload) select now() - make_interval(days => 40 + g % 30), repeat('x', 40) from generate_series(1, 150000) g`,
    );
    await query(
      warehouseUrl,
      `insert into ${table} (ts, payload) select now() - make_interval(mins => g % 1000), repeat('y', 40) from generate_series(1, 50000) g`,
    );
    const policy = await create(editor, {
      project_id: project,
      name: 'events',
      target: { kind: 'warehouse_table', table: 'events', timestamp_column: 'ts' },
      max_age: '30d',
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const before = await preview(editor, policy.body.id);
    expect(before.counts).toEqual({ events: 150_000 });

    // The writer: inserts new rows and updates random old ones (which the sweep is deleting).
    const writer = new pg.Client({ connectionString: warehouseUrl });
    await writer.connect();
    let writing = true;
    let maxLatencyMs = 0;
    let writes = 0;
    const loop = (async () => {
      while (writing) {
        const started = performance.now();
        await writer.query(`insert into ${table} (ts, payload) values (now(), 'new')`);
        await writer.query(`update ${table} set payload = 'touched' where id = $1`, [
          1 + Math.floor(Math.random() * 150_000),
        ]);
        maxLatencyMs = Math.max(maxLatencyMs, performance.now() - started);
        writes += 1;
      }
    })();
    try {
      const sweep = await run(editor, policy.body.id);
      const done = await sweepDone(editor, policy.body.id, sweep.id);
      expect(done.status, done.error ?? '').toBe('succeeded');
      expect(done.counts).toEqual(before.counts);
      expect(done.batches).toBeGreaterThanOrEqual(150_000 / 2000);
    } finally {
      writing = false;
      await loop;
      await writer.end();
    }
    expect(writes).toBeGreaterThan(10);
    expect(maxLatencyMs).toBeLessThan(1000);
    const left = await query(
      warehouseUrl,
      `select count(*)::int as old from ${table} where ts < now() - interval '30 days'`,
    );
    expect(left.rows[0].old).toBe(0);
    expect((await query(warehouseUrl, `select count(*)::int as n from ${table}`)).rows[0].n).toBe(50_000 + writes);
  }, 300_000);

  it("archives to the project's files folder then deletes, with max_rows", async () => {
    const table = await warehouseTable('orders', '(id int primary key, ts timestamp not null, amount numeric)');
    await query(
      warehouseUrl,
      `insert into ${table} select g, localtimestamp - make_interval(hours => g), g * 1.5 from generate_series(1, 100) g`,
    );
    const policy = await create(editor, {
      project_id: project,
      name: 'orders',
      target: { kind: 'warehouse_table', table: 'orders', timestamp_column: 'ts', action: 'archive' },
      max_age: '1w',
      max_rows: 30,
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const before = await preview(editor, policy.body.id);
    expect(before.counts).toEqual({ orders: 70 });
    const done = await sweepDone(editor, policy.body.id, (await run(editor, policy.body.id)).id);
    expect(done.status, done.error ?? '').toBe('succeeded');
    expect(done.counts).toEqual({ orders: 70 });
    const remaining = await query(warehouseUrl, `select min(id)::int as lo, max(id)::int as hi from ${table}`);
    expect(remaining.rows[0]).toEqual({ lo: 1, hi: 30 });
    const file = path.join(
      t.config.files.root ?? path.join(t.config.dataDir, 'files'),
      project,
      done.details['archive_file'] as string,
    );
    const archived = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number });
    expect(archived.map((r) => r.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 70 }, (_, i) => i + 31));
  });

  it("keeps a project's policies to its members", async () => {
    const policy = await create(editor, {
      project_id: project,
      name: 'private',
      target: { kind: 'execution_history' },
      max_age: '30d',
    });
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['POST', '/preview'],
      ['POST', '/run'],
      ['GET', '/sweeps'],
      ['DELETE', ''],
    ] as const) {
      const result = await api(t, method, `/api/v1/retention-policies/${policy.body.id}${suffix}`, {
        token: outsider,
        body: method === 'PATCH' ? { name: 'taken' } : undefined,
      });
      expect([403, 404], `${method} ${suffix}`).toContain(result.status);
    }
    const listed = await api<{ items: Array<{ id: string }> }>(t, 'GET', '/api/v1/retention-policies', {
      token: outsider,
    });
    expect(listed.body.items.map((p) => p.id)).not.toContain(policy.body.id);
    expect((await api(t, 'GET', `/api/v1/retention-policies?project_id=${project}`, { token: outsider })).status).toBe(
      403,
    );
    // Creating a policy in someone else's project is refused too.
    expect(
      (
        await create(outsider, {
          ...{ project_id: project, name: 'x' },
          target: { kind: 'execution_history' },
          max_age: '1d',
        })
      ).status,
    ).toBe(403);
    expect((await api(t, 'GET', `/api/v1/retention-policies/${policy.body.id}`, { token: editor })).status).toBe(200);
  });

  it('refuses a second sweep while one is queued, and is not blocked by one whose execution was cancelled', async () => {
    const policy = await create(editor, {
      project_id: project,
      name: 'unblocked',
      target: { kind: 'execution_history' },
      max_age: '365d',
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const url = t.config.db.url!;
    // A queued sweep whose execution no worker has picked up (it has no job).
    const waiting = await query(
      url,
      `insert into executions (project_id, kind, status, params) values ($1, 'retention_sweep', 'queued', '{}') returning id`,
      [project],
    );
    const stuck = await query(
      url,
      `insert into retention_sweeps (policy_id, project_id, execution_id, trigger) values ($1, $2, $3, 'manual') returning id`,
      [policy.body.id, project, waiting.rows[0].id],
    );
    const refused = await api(t, 'POST', `/api/v1/retention-policies/${policy.body.id}/run`, { token: editor });
    expect(refused.status).toBe(409);
    // Cancelled while queued: its worker never runs, so the sweep never ends by itself.
    await query(url, `update executions set status = 'cancelled', finished_at = now() where id = $1`, [
      waiting.rows[0].id,
    ]);
    const sweep = await run(editor, policy.body.id);
    expect((await sweepDone(editor, policy.body.id, sweep.id)).status).toBe('succeeded');
    const old = await query(url, 'select status, error from retention_sweeps where id = $1', [stuck.rows[0].id]);
    expect(old.rows[0]).toEqual({ status: 'failed', error: 'its execution is cancelled' });
  });

  it('fires a due schedule from the leader', async () => {
    const policy = await create(editor, {
      project_id: project,
      name: 'scheduled',
      target: { kind: 'execution_history' },
      max_age: '365d',
      interval_seconds: 60,
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    await query(
      t.config.db.url!,
      `update retention_policies set next_run_at = now() - interval '1 second' where id = $1`,
      [policy.body.id],
    );
    // The leader's task (every second here) finds it due and starts a sweep.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const list = await api<{ items: Array<Sweep & { trigger: string }> }>(
        t,
        'GET',
        `/api/v1/retention-policies/${policy.body.id}/sweeps`,
        { token: editor },
      );
      if (list.body.items.length > 0) {
        expect(list.body.items[0]!.trigger).toBe('schedule');
        break;
      }
      if (Date.now() > deadline) throw new Error('the schedule did not fire');
      await new Promise((r) => setTimeout(r, 250));
    }
    const after = await api<{ next_run_at: string }>(t, 'GET', `/api/v1/retention-policies/${policy.body.id}`, {
      token: editor,
    });
    expect(Date.parse(after.body.next_run_at)).toBeGreaterThan(Date.now());
  });
});
