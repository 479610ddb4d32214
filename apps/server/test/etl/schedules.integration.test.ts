import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface Schedule {
  id: string;
  paused: boolean;
  next_due_at: string | null;
}

interface DashboardItem {
  schedule_id: string;
  pipeline_id: string;
  next_due_at: string | null;
  paused: boolean;
  last_run: { execution_id: string; status: string; duration_ms: number | null } | null;
  failures_in_a_row: number;
  missed_runs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Three processes share one framework database, each with a scheduler; one of them runs jobs. */
describe('schedules, the schedules dashboard and the overview', () => {
  let framework: TestDatabase;
  let data: TestDatabase;
  let apps: TestApp[];
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let connectorId: string;

  beforeAll(async () => {
    framework = await createTestDatabase();
    data = await createTestDatabase();
    const env = { ...NO_RATE_LIMITS, SVC_SCHEDULER_TICK_MS: '100', SVC_SCHEDULER_GRACE_SECONDS: '5' };
    apps = [];
    for (const worker of [true, false, false])
      apps.push(await startTestApp({ env, database: framework, worker, scheduler: true }));
    t = apps[0]!;
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    connectorId = await createPostgresConnector(t, admin, projectId, 'data', data.name);
    await query(data.url, 'create table small as select g as id from generate_series(1, 50) g');
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    await framework?.drop();
    await data?.drop();
  });

  const pipeline = async (
    name: string,
    source: Record<string, unknown>,
    project = projectId,
    connector = connectorId,
  ) => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token: admin,
      body: {
        project_id: project,
        name,
        sources: [{ connector_id: connector, ...source }],
        destination: { connector_id: connector, table: `out_${name.replaceAll(' ', '_')}`, mode: 'overwrite' },
      },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  const schedule = async (body: Record<string, unknown>) => {
    const created = await api<Schedule>(t, 'POST', '/api/v1/etl/schedules', { token: admin, body });
    expect(created.status).toBe(201);
    return created.body;
  };
  const firings = async (scheduleId: string) =>
    (
      await query(
        framework.url,
        `select due_at, outcome, missed_before, execution_id from schedule_firings where schedule_id = $1 order by due_at`,
        [scheduleId],
      )
    ).rows as Array<{ due_at: Date; outcome: string; missed_before: number; execution_id: string | null }>;
  const dashboard = async (project = projectId) =>
    (
      await api<{ items: DashboardItem[] }>(t, 'GET', `/api/v1/schedules/dashboard?project_id=${project}`, {
        token: admin,
      })
    ).body.items;

  it('fires each due time exactly once with three schedulers running, and stops while paused', async () => {
    const pipelineId = await pipeline('every second', { dataset: 'small' });
    const created = await schedule({ pipeline_id: pipelineId, interval_seconds: 1 });
    expect(Date.parse(created.next_due_at!)).toBeGreaterThan(Date.now());
    await sleep(5_500);
    const paused = await api<Schedule>(t, 'POST', `/api/v1/etl/schedules/${created.id}/pause`, { token: admin });
    expect(paused.body).toMatchObject({ paused: true, next_due_at: null });
    await sleep(300); // a tick in flight when the pause landed
    const fired = await firings(created.id);
    const covered = fired.reduce((n, f) => n + f.missed_before + 1, 0);
    expect(covered).toBeGreaterThanOrEqual(4);
    expect(covered).toBeLessThanOrEqual(6);
    // No due time dropped, none doubled: every second from the first to the last is accounted for
    // exactly once, by its own firing or (on a machine too busy to tick in time) as missed before the next.
    fired.forEach((f, i) => {
      if (i > 0) expect(f.due_at.getTime() - fired[i - 1]!.due_at.getTime()).toBe((f.missed_before + 1) * 1000);
      expect(['enqueued', 'skipped_running']).toContain(f.outcome);
    });
    expect(fired.filter((f) => f.missed_before === 0).length).toBeGreaterThanOrEqual(fired.length - 1);
    const runs = (
      await query(
        framework.url,
        `select id, params->>'due_at' as due_at, trigger from executions where schedule_id = $1 order by created_at`,
        [created.id],
      )
    ).rows;
    const enqueued = fired.filter((f) => f.outcome === 'enqueued');
    expect(enqueued.length).toBeGreaterThanOrEqual(2);
    expect(runs.map((r) => r.id).sort()).toEqual(enqueued.map((f) => f.execution_id).sort());
    expect(runs.map((r) => r.due_at).sort()).toEqual(enqueued.map((f) => f.due_at.toISOString()).sort());
    expect(runs.every((r) => r.trigger === 'schedule')).toBe(true);
    // The three processes all schedule; the log lines of the firings add up to exactly the enqueued ones.
    const handled = apps.flatMap((app) =>
      app.logs.filter((l) => l['schedule_id'] === created.id && typeof l['due_at'] === 'string'),
    );
    expect(handled.filter((l) => l['msg'] === 'schedule fired')).toHaveLength(enqueued.length);
    expect(handled).toHaveLength(fired.length);
    expect(new Set(handled.map((l) => l['due_at'])).size).toBe(fired.length);

    // Each process counts the due times it handled: together, exactly the enqueued ones.
    let counted = 0;
    for (const app of apps) {
      const metrics = await (await fetch(`${app.url}/metrics`)).text();
      counted += Number(/svc_schedule_firings_total\{outcome="enqueued"\} (\d+)/.exec(metrics)?.[1] ?? 0);
    }
    expect(counted).toBe(enqueued.length);

    await sleep(2_000);
    expect(await firings(created.id)).toHaveLength(fired.length);
    const resumed = await api<Schedule>(t, 'POST', `/api/v1/etl/schedules/${created.id}/resume`, { token: admin });
    expect(resumed.body.paused).toBe(false);
    await sleep(1_600);
    const after = await firings(created.id);
    expect(after.length).toBeGreaterThan(fired.length);
    // Resuming starts from now: the seconds spent paused are neither run nor missed.
    expect(after.slice(fired.length).every((f) => f.missed_before === 0)).toBe(true);
    await api(t, 'POST', `/api/v1/etl/schedules/${created.id}/pause`, { token: admin });
  });

  it('skips due times missed while no scheduler ran, or runs once for them, per the policy', async () => {
    const skipped = await schedule({
      pipeline_id: await pipeline('hourly skip', { dataset: 'small' }),
      interval_seconds: 60,
      missed_policy: 'skip',
    });
    const caughtUp = await schedule({
      pipeline_id: await pipeline('hourly once', { dataset: 'small' }),
      interval_seconds: 60,
      missed_policy: 'run_once',
    });
    // As if the service had been down: the stored due time is 130 s ago (due times -130, -70 and -10 s passed).
    await query(
      framework.url,
      `update etl_schedules set next_due_at = now() - interval '130 seconds' where id = any($1::uuid[])`,
      [[skipped.id, caughtUp.id]],
    );
    for (
      let i = 0;
      i < 50 && ((await firings(skipped.id)).length === 0 || (await firings(caughtUp.id)).length === 0);
      i++
    )
      await sleep(100);
    const [skip] = await firings(skipped.id);
    const [once] = await firings(caughtUp.id);
    expect(skip).toMatchObject({ outcome: 'missed', missed_before: 2, execution_id: null });
    expect(once).toMatchObject({ outcome: 'enqueued', missed_before: 2 });
    await waitForStatus(t, admin, once!.execution_id!, ['succeeded']);
    const items = await dashboard();
    const skipItem = items.find((i) => i.schedule_id === skipped.id)!;
    const onceItem = items.find((i) => i.schedule_id === caughtUp.id)!;
    expect(skipItem).toMatchObject({ missed_runs: 3, last_run: null });
    expect(onceItem).toMatchObject({
      missed_runs: 2,
      last_run: expect.objectContaining({ execution_id: once!.execution_id, status: 'succeeded' }),
    });
    // The next due time keeps the cadence: 50 s from now (the -10 s due time plus 60 s).
    const untilNext = Date.parse(skipItem.next_due_at!) - Date.now();
    expect(untilNext).toBeGreaterThan(40_000);
    expect(untilNext).toBeLessThanOrEqual(60_000);
  });

  it('does not start a run while the previous one is still running, and the dashboard reports the last run and the missed ones', async () => {
    const slow = await pipeline('slow', { name: 'slow', query: 'select 1 as id from pg_sleep(2)' });
    const created = await schedule({ pipeline_id: slow, interval_seconds: 1 });
    let fired = await firings(created.id);
    for (let i = 0; i < 80 && fired.filter((f) => f.outcome === 'skipped_running').length < 2; i++) {
      await sleep(100);
      fired = await firings(created.id);
    }
    await api(t, 'POST', `/api/v1/etl/schedules/${created.id}/pause`, { token: admin });
    expect(fired[0]).toMatchObject({ outcome: 'enqueued' });
    expect(fired.filter((f) => f.outcome === 'skipped_running').length).toBeGreaterThanOrEqual(2);
    const first = await waitForStatus(t, admin, fired[0]!.execution_id!, ['succeeded', 'failed']);
    expect(first.status).toBe('succeeded');
    await sleep(300);
    const item = (await dashboard()).find((i) => i.schedule_id === created.id)!;
    const skippedNow = (await firings(created.id)).filter((f) => f.outcome === 'skipped_running').length;
    expect(item.missed_runs).toBe(skippedNow);
    expect(item.paused).toBe(true);
    expect(item.next_due_at).toBeNull();
    const lastEnqueued = (await firings(created.id)).filter((f) => f.outcome === 'enqueued').at(-1)!;
    expect(item.last_run?.execution_id).toBe(lastEnqueued.execution_id);
  });

  it('refuses a bad schedule with 422 naming the field, and a second schedule for a pipeline with 409', async () => {
    const pipelineId = await pipeline('validated', { dataset: 'small' });
    const bad = async (body: Record<string, unknown>, path: string) => {
      const result = await api(t, 'POST', '/api/v1/etl/schedules', {
        token: admin,
        body: { pipeline_id: pipelineId, ...body },
      });
      expect(result.status).toBe(422);
      expect(result.body).toMatchObject({ errors: expect.arrayContaining([expect.objectContaining({ path })]) });
    };
    await bad({ cron: '61 * * * *' }, 'cron');
    await bad({ cron: '0 9 * * *', timezone: 'Mars/Olympus_Mons' }, 'timezone');
    await bad({ cron: '0 9 * * *', interval_seconds: 60 }, 'cron');
    await bad({}, 'cron');
    await bad({ interval_seconds: 0 }, 'interval_seconds');
    const ok = await schedule({ pipeline_id: pipelineId, cron: '30 9 * * 1-5', timezone: 'America/New_York' });
    const next = new Date(ok.next_due_at!);
    // 09:30 in New York is 13:30 or 14:30 UTC, on a weekday.
    expect([13, 14]).toContain(next.getUTCHours());
    expect(next.getUTCMinutes()).toBe(30);
    expect(
      (
        await api(t, 'POST', '/api/v1/etl/schedules', {
          token: admin,
          body: { pipeline_id: pipelineId, interval_seconds: 60 },
        })
      ).status,
    ).toBe(409);
    const retimed = await api<Schedule & { interval_seconds: number; cron: string | null }>(
      t,
      'PATCH',
      `/api/v1/etl/schedules/${ok.id}`,
      { token: admin, body: { interval_seconds: 3600 } },
    );
    expect(retimed.body).toMatchObject({ cron: null, interval_seconds: 3600 });
    expect((await api<Schedule>(t, 'GET', `/api/v1/etl/schedules/${ok.id}`, { token: admin })).body).toMatchObject({
      id: ok.id,
      paused: false,
    });
    const listed = await api<{ items: Schedule[] }>(t, 'GET', `/api/v1/etl/schedules?project_id=${projectId}`, {
      token: admin,
    });
    expect(listed.body.items.map((s) => s.id)).toContain(ok.id);
    expect((await api(t, 'DELETE', `/api/v1/etl/schedules/${ok.id}`, { token: admin })).status).toBe(204);
    expect((await api(t, 'GET', `/api/v1/etl/schedules/${ok.id}`, { token: admin })).status).toBe(404);
  });

  it('the overview and the dashboard add up to what ran in a project', async () => {
    const project = (await createProject(t, admin)).id;
    const connector = await createPostgresConnector(t, admin, project, 'data', data.name);
    await createPostgresConnector(t, admin, project, 'spare', data.name);
    const good = await pipeline('overview good', { dataset: 'small' }, project, connector);
    const broken = await pipeline('overview broken', { dataset: 'no_such_table' }, project, connector);
    const runOf = async (id: string) => {
      const started = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${id}/run`, { token: admin });
      return waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
    };
    const goodRuns = [await runOf(good), await runOf(good)];
    const brokenRuns = [await runOf(broken), await runOf(broken)];
    expect(goodRuns.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(brokenRuns.map((r) => r.status)).toEqual(['failed', 'failed']);
    await schedule({ pipeline_id: broken, interval_seconds: 3600, paused: true });

    const brokenItem = (await dashboard(project)).find((i) => i.pipeline_id === broken)!;
    expect(brokenItem).toMatchObject({
      failures_in_a_row: 2,
      paused: true,
      last_run: expect.objectContaining({ execution_id: brokenRuns[1]!.id, status: 'failed' }),
    });
    expect(brokenItem.last_run!.duration_ms).toBeGreaterThanOrEqual(0);

    const overview = await api<{ days: string[]; projects: Array<Record<string, unknown>> }>(
      t,
      'GET',
      `/api/v1/overview?project_id=${project}`,
      { token: admin },
    );
    expect(overview.status).toBe(200);
    expect(overview.body.days).toHaveLength(14);
    const today = new Date().toISOString().slice(0, 10);
    expect(overview.body.days.at(-1)).toBe(today);
    const [entry] = overview.body.projects;
    expect(entry).toMatchObject({
      project_id: project,
      counts: { connectors: 2, pipelines: 2, cdc_tables: 0, schedules: 1 },
      executions_24h: { queued: 0, running: 0, succeeded: 2, failed: 2, cancelled: 0 },
      failing: [
        expect.objectContaining({
          type: 'pipeline',
          id: broken,
          name: 'overview broken',
          execution_id: brokenRuns[1]!.id,
          error: expect.stringMatching(/no_such_table|does not exist/),
        }),
      ],
    });
    const perDay = entry!['rows_per_day'] as Array<{ day: string; rows: number }>;
    expect(perDay).toHaveLength(14);
    expect(perDay.at(-1)).toEqual({ day: today, rows: goodRuns[0]!.rows_written + goodRuns[1]!.rows_written });
    expect(goodRuns[0]!.rows_written).toBe(50);
    expect(perDay.slice(0, -1).every((d) => d.rows === 0)).toBe(true);

    const everything = await api<{ projects: Array<{ project_id: string }> }>(t, 'GET', '/api/v1/overview', {
      token: admin,
    });
    expect(everything.body.projects.map((p) => p.project_id)).toEqual(expect.arrayContaining([project, projectId]));
    // Someone with no membership sees no project, and is refused this one.
    const outsider = await createUser(t, admin);
    const theirs = await api<{ projects: unknown[] }>(t, 'GET', '/api/v1/overview', {
      token: outsider.session.accessToken,
    });
    expect(theirs.body.projects).toEqual([]);
    expect(
      (await api(t, 'GET', `/api/v1/overview?project_id=${project}`, { token: outsider.session.accessToken })).status,
    ).toBe(403);
    expect(
      (
        await api<{ items: unknown[] }>(t, 'GET', '/api/v1/schedules/dashboard', {
          token: outsider.session.accessToken,
        })
      ).body.items,
    ).toEqual([]);
  });
});
