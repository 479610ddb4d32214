import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface Schedule {
  owner_id: string | null;
  cron: string | null;
  timezone: string;
  interval_seconds: number | null;
  missed_policy: 'skip' | 'run_once';
  paused: boolean;
  next_due_at: string | null;
}
interface ExportItem {
  id: string;
  schedule: Schedule | null;
}
interface ExportRun {
  execution_id: string;
  status: string;
  trigger: 'manual' | 'schedule';
  delivered: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Export schedules, fired by the leader at the scheduler's tick. */
describe('export schedules', () => {
  let framework: TestDatabase;
  let t: TestApp;
  let admin: string;
  let projectId: string;

  beforeAll(async () => {
    framework = await createTestDatabase();
    t = await startTestApp({
      env: { ...NO_RATE_LIMITS, SVC_SCHEDULER_TICK_MS: '100', SVC_SCHEDULER_GRACE_SECONDS: '5' },
      database: framework,
      worker: true,
      leader: true,
    });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
  });
  afterAll(async () => {
    await t?.close();
    await framework?.drop();
  });

  const body = (schedule: unknown) => ({
    project_id: projectId,
    name: `scheduled-${Math.random().toString(36).slice(2, 8)}`,
    source: { kind: 'warehouse_query', query: 'select g as id from generate_series(1, 25) g' },
    destination: { kind: 'files', folder: 'scheduled' },
    schedule,
  });
  const create = async (schedule: unknown) => {
    const created = await api<ExportItem>(t, 'POST', '/api/v1/exports', { token: admin, body: body(schedule) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const runs = async (id: string) =>
    (await api<{ items: ExportRun[] }>(t, 'GET', `/api/v1/exports/${id}/runs`, { token: admin })).body.items;
  const patch = async (id: string, schedule: unknown) => {
    const changed = await api<ExportItem>(t, 'PATCH', `/api/v1/exports/${id}`, { token: admin, body: { schedule } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    return changed.body;
  };
  const firings = async (outcome: string) => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const match = new RegExp(`svc_export_schedule_firings_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text);
    return Number(match?.[1] ?? 0);
  };

  it('runs an export on its interval, one run at a time, and stops while it is paused', async () => {
    const created = await create({ interval_seconds: 1 });
    expect(created.schedule).toMatchObject({ cron: null, interval_seconds: 1, timezone: 'UTC', paused: false });
    expect(Date.parse(created.schedule!.next_due_at!)).toBeGreaterThan(Date.now() - 1000);

    // Several due times pass: each that finds no run going starts one, as the schedule's.
    const deadline = Date.now() + 30_000;
    while ((await runs(created.id)).filter((r) => r.status === 'succeeded').length < 2 && Date.now() < deadline)
      await sleep(200);
    const fired = await runs(created.id);
    expect(fired.filter((r) => r.status === 'succeeded').length).toBeGreaterThanOrEqual(2);
    expect(fired.every((r) => r.trigger === 'schedule')).toBe(true);
    expect(fired.find((r) => r.status === 'succeeded')!.delivered).toBe(25);
    // Never two at once: a due time that finds a run still going is skipped.
    const executions = (await Promise.all(
      fired.map((r) => waitForStatus(t, admin, r.execution_id, ['succeeded'])),
    )) as Array<Execution & { started_at: string | null; finished_at: string | null }>;
    const spans = executions
      .map((e) => [Date.parse(e.started_at!), Date.parse(e.finished_at!)] as const)
      .sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);

    const paused = await patch(created.id, { paused: true });
    expect(paused.schedule).toMatchObject({ interval_seconds: 1, paused: true, next_due_at: null });
    await sleep(300); // a tick that claimed it before the pause may still start one
    const before = (await runs(created.id)).length;
    await sleep(2000);
    expect((await runs(created.id)).length).toBe(before);

    // A manual run is told apart from the scheduled ones.
    const manual = await api<{ id: string }>(t, 'POST', `/api/v1/exports/${created.id}/run`, { token: admin });
    expect(manual.status).toBe(201);
    await waitForStatus(t, admin, manual.body.id, ['succeeded']);
    expect((await runs(created.id)).find((r) => r.execution_id === manual.body.id)!.trigger).toBe('manual');

    // Removing the schedule leaves an export run on demand only.
    expect((await patch(created.id, null)).schedule).toBeNull();
  });

  it('skips a due time found late under skip, and runs once for all of them under run_once', async () => {
    const skip = await create({ cron: '0 3 * * *', timezone: 'Europe/Berlin', missed_policy: 'skip' });
    const once = await create({ cron: '0 3 * * *', timezone: 'Europe/Berlin', missed_policy: 'run_once' });
    // The next due time is 03:00 in Berlin.
    const due = new Date(skip.schedule!.next_due_at!);
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(due);
    expect(berlin).toBe('03:00');
    const missedBefore = await firings('missed');

    // As if the service had been down for three days: the 03:00 of three days before the next one was
    // stored, and it and the two after it passed unseen.
    await query(
      framework.url,
      `update exports set next_due_at = (next_due_at at time zone 'Europe/Berlin' - interval '3 days') at time zone 'Europe/Berlin'
        where id = any($1)`,
      [[skip.id, once.id]],
    );
    const deadline = Date.now() + 15_000;
    while ((await runs(once.id)).length === 0 && Date.now() < deadline) await sleep(100);
    const onceRuns = await runs(once.id);
    expect(onceRuns).toHaveLength(1);
    expect(onceRuns[0]!.trigger).toBe('schedule');
    await waitForStatus(t, admin, onceRuns[0]!.execution_id, ['succeeded']);
    await sleep(500);
    expect(await runs(skip.id)).toHaveLength(0);
    expect(await runs(once.id)).toHaveLength(1);
    // Both moved on to their next 03:00, in the future; the skipped ones are counted.
    for (const id of [skip.id, once.id]) {
      const item = (await api<ExportItem>(t, 'GET', `/api/v1/exports/${id}`, { token: admin })).body;
      expect(Date.parse(item.schedule!.next_due_at!)).toBeGreaterThan(Date.now());
    }
    // skip: 3 due times missed; run_once: 2 missed before the one it ran.
    expect((await firings('missed')) - missedBefore).toBe(5);
  });

  it('runs for whoever set the schedule or redirected the export, who must be allowed to run it', async () => {
    const created = await create({ cron: '0 4 * * *' });
    const adminId = (await api<{ id: string }>(t, 'GET', '/api/v1/me', { token: admin })).body.id;
    expect(created.schedule).toMatchObject({ owner_id: adminId });
    // A role that may change exports but not run them.
    const role = `writer-${Math.random().toString(36).slice(2, 8)}`;
    expect(
      (
        await api(t, 'POST', '/api/v1/admin/roles', {
          token: admin,
          body: { name: role, capabilities: ['export:read', 'export:write'] },
        })
      ).status,
    ).toBe(201);
    const writer = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${writer.id}`, { token: admin, body: { role } });
    const asWriter = (body: Record<string, unknown>) =>
      api<ExportItem>(t, 'PATCH', `/api/v1/exports/${created.id}`, { token: writer.session.accessToken, body });
    // Redirecting a scheduled export, or setting its schedule, needs export:run.
    expect((await asWriter({ destination: { kind: 'files', folder: 'elsewhere' } })).status).toBe(403);
    expect((await asWriter({ schedule: { paused: true } })).status).toBe(403);
    // A change that neither schedules nor redirects does not.
    expect((await asWriter({ description: 'nightly' })).status).toBe(200);
    // An editor may run exports: redirecting makes the editor the one the runs act for.
    const editor = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${editor.id}`, {
      token: admin,
      body: { role: 'editor' },
    });
    const redirected = await api<ExportItem>(t, 'PATCH', `/api/v1/exports/${created.id}`, {
      token: editor.session.accessToken,
      body: { destination: { kind: 'files', folder: 'elsewhere' } },
    });
    expect(redirected.status, JSON.stringify(redirected.body)).toBe(200);
    expect(redirected.body.schedule).toMatchObject({ owner_id: editor.id, cron: '0 4 * * *' });
  });

  it('answers 422 naming the schedule field for a bad cron, time zone or both timings', async () => {
    const count = async () =>
      (await api<{ items: ExportItem[] }>(t, 'GET', `/api/v1/exports?project_id=${projectId}`, { token: admin })).body
        .items.length;
    const before = await count();
    const refused = async (schedule: unknown) => {
      const response = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/exports', {
        token: admin,
        body: body(schedule),
      });
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      return response.body.errors.map((e) => e.path);
    };
    expect(await refused({ cron: 'every day at noon' })).toContain('schedule.cron');
    expect(await refused({ cron: '0 12 * * *', timezone: 'Mars/Olympus' })).toContain('schedule.timezone');
    expect(await refused({ cron: '0 12 * * *', interval_seconds: 60 })).toContain('schedule.cron');
    expect(await refused({})).toContain('schedule.cron');
    const schemaRefused = await api(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: body({ interval_seconds: 0 }),
    });
    expect([400, 422]).toContain(schemaRefused.status);
    expect(JSON.stringify(schemaRefused.body)).toContain('interval_seconds');
    // Nothing was created by the refused requests.
    expect(await count()).toBe(before);
  });
});
