/**
 * Schedules of model runs: a selection of a project's models run on an interval by the leader, one run
 * at a time, paused and resumed; refused with the field named when a selector or the timing is wrong;
 * seen and changed only as the project's roles allow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { waitForStatus, type Execution } from '../support/runs.js';

interface ModelSchedule {
  id: string;
  name: string;
  select: string[];
  interval_seconds: number | null;
  cron: string | null;
  paused: boolean;
  next_due_at: string | null;
  last_execution_id: string | null;
}
type Run = Execution & { kind: string; trigger: string | null; started_at: string | null; finished_at: string | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('schedules of model runs', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp({
      env: { ...NO_RATE_LIMITS, SVC_SCHEDULER_TICK_MS: '100' },
      worker: true,
      leader: true,
    });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    for (const model of [
      { name: 'numbers', materialization: 'table', sql: 'select g as n from generate_series(1, 100) g' },
      { name: 'evens', materialization: 'view', sql: "select n from {{ ref('numbers') }} where n % 2 = 0" },
      { name: 'unrelated', materialization: 'view', sql: 'select 1 as one' },
    ]) {
      const created = await api(t, 'POST', '/api/v1/dw-models', {
        token: admin,
        body: { project_id: projectId, ...model },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const modelRuns = async () =>
    (
      await api<{ items: Run[] }>(t, 'GET', `/api/v1/executions?kind=model_run&project_id=${projectId}`, {
        token: admin,
      })
    ).body.items;
  const results = async (id: string) =>
    (
      await api<{ results: Array<{ model: string; status: string }> }>(t, 'GET', `/api/v1/dw-models/runs/${id}`, {
        token: admin,
      })
    ).body.results;

  it('runs its selection on its interval, one run at a time, and not while paused', async () => {
    const created = await api<ModelSchedule>(t, 'POST', '/api/v1/dw-models/schedules', {
      token: admin,
      body: { project_id: projectId, name: 'evens hourly', select: ['+evens'], interval_seconds: 1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ select: ['+evens'], interval_seconds: 1, cron: null, paused: false });

    const deadline = Date.now() + 30_000;
    while ((await modelRuns()).filter((r) => r.status === 'succeeded').length < 2 && Date.now() < deadline)
      await sleep(200);
    const runs = await modelRuns();
    const done = runs.filter((r) => r.status === 'succeeded');
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(runs.every((r) => r.trigger === 'schedule')).toBe(true);
    // The selection, and only it.
    expect((await results(done[0]!.id)).map((r) => [r.model, r.status])).toEqual([
      ['numbers', 'success'],
      ['evens', 'success'],
    ]);
    // Never two at once.
    const finished = (await Promise.all(runs.map((r) => waitForStatus(t, admin, r.id, ['succeeded'])))) as Run[];
    const spans = finished
      .map((r) => [Date.parse(r.started_at!), Date.parse(r.finished_at!)] as const)
      .sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
    const paused = await api<ModelSchedule>(t, 'PATCH', `/api/v1/dw-models/schedules/${created.body.id}`, {
      token: admin,
      body: { paused: true },
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ paused: true, next_due_at: null, interval_seconds: 1 });
    await sleep(300);
    const before = (await modelRuns()).length;
    await sleep(2000);
    expect((await modelRuns()).length).toBe(before);
    // Read once nothing fires any more: with a 1 s interval a run may start between two reads before.
    const listed = await api<ModelSchedule>(t, 'GET', `/api/v1/dw-models/schedules/${created.body.id}`, {
      token: admin,
    });
    expect((await modelRuns()).map((r) => r.id)).toContain(listed.body.last_execution_id);

    // A cron instead: due afresh, at the next full minute.
    const cron = await api<ModelSchedule>(t, 'PATCH', `/api/v1/dw-models/schedules/${created.body.id}`, {
      token: admin,
      body: { cron: '* * * * *', paused: false },
    });
    expect(cron.body).toMatchObject({ cron: '* * * * *', interval_seconds: null, paused: false });
    expect(new Date(cron.body.next_due_at!).getUTCSeconds()).toBe(0);
    expect((await api(t, 'DELETE', `/api/v1/dw-models/schedules/${created.body.id}`, { token: admin })).status).toBe(
      204,
    );
  });

  it('answers 422 naming the selector or the timing field that is wrong, and 409 for a name taken', async () => {
    const post = (body: Record<string, unknown>) =>
      api<{ errors?: Array<{ path: string }> }>(t, 'POST', '/api/v1/dw-models/schedules', {
        token: admin,
        body: { project_id: projectId, name: `s-${Math.random().toString(36).slice(2, 8)}`, ...body },
      });
    const paths = async (body: Record<string, unknown>) => {
      const response = await post(body);
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      return response.body.errors!.map((e) => e.path);
    };
    expect(await paths({ select: ['numbers', 'no_such_model'], interval_seconds: 60 })).toEqual(['select.1']);
    expect(await paths({ cron: '61 * * * *' })).toEqual(['cron']);
    expect(await paths({ cron: '0 3 * * *', timezone: 'Nowhere/Else' })).toEqual(['timezone']);
    expect(await paths({})).toEqual(['cron']);
    expect((await post({ name: 'taken', interval_seconds: 3600 })).status).toBe(201);
    expect((await post({ name: 'taken', interval_seconds: 3600 })).status).toBe(409);
  });

  it('is seen by the project viewer, changed only by who may run models, hidden from other projects', async () => {
    const created = await api<ModelSchedule>(t, 'POST', '/api/v1/dw-models/schedules', {
      token: admin,
      body: { project_id: projectId, name: 'nightly', cron: '0 2 * * *', timezone: 'Europe/Paris' },
    });
    expect(created.status).toBe(201);
    const viewer = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${viewer.id}`, {
      token: admin,
      body: { role: 'viewer' },
    });
    const view = viewer.session.accessToken;
    expect((await api(t, 'GET', `/api/v1/dw-models/schedules/${created.body.id}`, { token: view })).status).toBe(200);
    expect(
      (
        await api(t, 'PATCH', `/api/v1/dw-models/schedules/${created.body.id}`, {
          token: view,
          body: { paused: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api(t, 'POST', '/api/v1/dw-models/schedules', {
          token: view,
          body: { project_id: projectId, name: 'mine', interval_seconds: 60 },
        })
      ).status,
    ).toBe(403);

    const outsider = await createUser(t, admin);
    const other = await createProject(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${other.id}/members/${outsider.id}`, {
      token: admin,
      body: { role: 'owner' },
    });
    const token = outsider.session.accessToken;
    expect((await api(t, 'GET', `/api/v1/dw-models/schedules/${created.body.id}`, { token })).status).toBe(403);
    const list = await api<{ items: ModelSchedule[] }>(t, 'GET', '/api/v1/dw-models/schedules', { token });
    expect(list.body.items.map((s) => s.id)).not.toContain(created.body.id);
  });
});
