/** Helpers for tests of runs: executions, table checksums. */
import pg from 'pg';
import type { TestApp } from './app.js';
import { api } from './http.js';

export interface Execution {
  id: string;
  status: string;
  rows_read: number;
  rows_written: number;
  error: string | null;
  attempts: number;
  /** The detail of a queued or running execution: its rate and time left. */
  progress?: { rows_per_second: number | null; rows_expected: number | null; seconds_left: number | null };
}

export async function query(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** A checksum of a table's content, independent of row order. */
export async function checksum(url: string, table: string): Promise<{ rows: number; md5: string }> {
  const result = await query(
    url,
    `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as md5 from ${table} t`,
  );
  return result.rows[0] as { rows: number; md5: string };
}

export async function waitForStatus(
  t: TestApp,
  token: string,
  id: string,
  statuses: string[],
  timeoutMs = 60_000,
): Promise<Execution> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await api<Execution>(t, 'GET', `/api/v1/executions/${id}`, { token });
    if (statuses.includes(result.body.status)) return result.body;
    if (Date.now() > deadline)
      throw new Error(`execution ${id} still ${result.body.status}: ${JSON.stringify(result.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A postgres data connector in a project, pointing at a database of the test server. */
export async function createPostgresConnector(
  t: TestApp,
  token: string,
  projectId: string,
  name: string,
  database: string,
): Promise<string> {
  const url = new URL(process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const config = {
    host: url.hostname,
    port: Number(url.port || 5432),
    database,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password) || 'unused',
  };
  const result = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
    token,
    body: { project_id: projectId, name, kind: 'postgres', config },
  });
  if (result.status !== 201)
    throw new Error(`create connector failed: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body.id;
}
