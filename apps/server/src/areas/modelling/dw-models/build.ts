/**
 * Builds one model in the project's warehouse schema, on a connection logged in as the project's own
 * role, and runs its data tests.
 *
 * Atomic builds: a table (and a view whose columns changed) is built under a temporary name while
 * the old relation serves readers, then swapped in by one transaction: rename the old one away,
 * rename the new one in, drop the old one, and create again the views that depended on it (their
 * definitions read before the swap). A reader waiting on the lock sees the new relation when the
 * transaction commits; nobody ever sees a missing or half-built one. An incremental model adds its
 * new rows (append, merge or delete+insert) in one transaction.
 */
import type pg from 'pg';
import { ident } from './sql.js';
import type { DataTest, IncrementalStrategy, Materialization, OnSchemaChange, TestResult } from './repository.js';

export interface BuildSpec {
  schema: string;
  name: string;
  materialization: Materialization;
  /** The SELECT of a full build. */
  sql: string;
  /** The SELECT of an incremental addition (the `is_incremental()` parts kept). */
  incrementalSql?: string;
  uniqueKey: string[];
  strategy: IncrementalStrategy;
  onSchemaChange: OnSchemaChange;
  fullRefresh: boolean;
  /** Unique per build: the temporary relations' suffix. */
  suffix: string;
}

export interface BuildOutcome {
  /** Rows of the table built, or added by an incremental build; null for a view. */
  rows: number | null;
  /** What was done: `view`, `table`, `incremental` (rows added), `full` (an incremental model built whole). */
  mode: 'view' | 'table' | 'incremental' | 'full' | 'ephemeral';
  /** Columns added or dropped by on_schema_change, for the run's log. */
  schemaChanges: string[];
}

/** A build that failed because of the model itself (its schema changed under `fail`, a key column missing). */
export class BuildError extends Error {}

interface Column {
  name: string;
  type: string;
}

type Client = pg.ClientBase;

const relation = (schema: string, name: string) => `${ident(schema)}.${ident(name)}`;

async function relkindOf(client: Client, schema: string, name: string): Promise<string | undefined> {
  const { rows } = await client.query<{ relkind: string }>(
    'select c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = $2',
    [schema, name],
  );
  return rows[0]?.relkind;
}

async function columnsOf(client: Client, regclass: string): Promise<Column[]> {
  const { rows } = await client.query<Column>(
    `select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
      where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
    [regclass],
  );
  return rows;
}

const dropKind = (relkind: string) => (relkind === 'v' ? 'view' : relkind === 'm' ? 'materialized view' : 'table');

async function inTransaction<T>(client: Client, work: () => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const result = await work();
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/**
 * In the caller's transaction: the relation `schema.name` (of kind `relkind`) is replaced by
 * `schema.temp`; the views that depended on it are created again over the new one.
 */
async function swapIn(client: Client, schema: string, name: string, temp: string, suffix: string): Promise<void> {
  const current = await relkindOf(client, schema, name);
  if (current) {
    const target = relation(schema, name);
    await client.query(`lock table ${target} in access exclusive mode`);
    // Views over the old relation, deepest last, as their definitions read now (before the rename).
    const { rows: dependents } = await client.query<{ schema: string; name: string; relkind: string; def: string }>(
      `with recursive deps(oid, depth) as (
         select r.ev_class, 1 from pg_depend d join pg_rewrite r on r.oid = d.objid
          where d.classid = 'pg_rewrite'::regclass and d.refobjid = $1::regclass and r.ev_class <> $1::regclass
         union
         select r.ev_class, deps.depth + 1 from deps join pg_depend d on d.refobjid = deps.oid
           join pg_rewrite r on r.oid = d.objid
          where d.classid = 'pg_rewrite'::regclass and r.ev_class <> deps.oid
       )
       select n.nspname as schema, c.relname as name, c.relkind, pg_get_viewdef(c.oid) as def
         from deps join pg_class c on c.oid = deps.oid join pg_namespace n on n.oid = c.relnamespace
        group by n.nspname, c.relname, c.relkind, c.oid order by max(deps.depth), c.relname`,
      [target],
    );
    const old = `${name.slice(0, 40)}__svc_old_${suffix}`;
    await client.query(`alter ${dropKind(current)} ${target} rename to ${ident(old)}`);
    await client.query(`alter table ${relation(schema, temp)} rename to ${ident(name)}`);
    await client.query(`drop ${dropKind(current)} ${relation(schema, old)} cascade`);
    for (const view of dependents) {
      const create = view.relkind === 'm' ? 'create materialized view' : 'create view';
      await client.query(`${create} ${relation(view.schema, view.name)} as ${view.def}`).catch((error: Error) => {
        throw new BuildError(`the view ${view.schema}.${view.name} over it cannot be created again: ${error.message}`);
      });
    }
  } else {
    await client.query(`alter table ${relation(schema, temp)} rename to ${ident(name)}`);
  }
}

/** Builds a table under a temporary name, then swaps it in; answers its rows. */
async function buildTable(client: Client, spec: BuildSpec): Promise<number> {
  const temp = `${spec.name.slice(0, 40)}__svc_new_${spec.suffix}`;
  await client.query(`drop table if exists ${relation(spec.schema, temp)}`);
  let rows: number;
  try {
    const created = await client.query(`create table ${relation(spec.schema, temp)} as\n${spec.sql}\n`);
    rows = created.rowCount ?? 0;
    await inTransaction(client, () => swapIn(client, spec.schema, spec.name, temp, spec.suffix));
  } catch (error) {
    await client.query(`drop table if exists ${relation(spec.schema, temp)}`).catch(() => undefined);
    throw error;
  }
  return rows;
}

/** A view: replaced in place when its columns allow it (dependents keep working), else built aside and swapped in. */
async function buildView(client: Client, spec: BuildSpec): Promise<void> {
  const kind = await relkindOf(client, spec.schema, spec.name);
  if (kind === undefined || kind === 'v') {
    try {
      await client.query(`create or replace view ${relation(spec.schema, spec.name)} as\n${spec.sql}\n`);
      return;
    } catch (error) {
      // Columns renamed, dropped or retyped: 42P16 (invalid_table_definition) or 42804 (datatype_mismatch).
      const code = (error as { code?: string }).code;
      if (kind === undefined || (code !== '42P16' && code !== '42804')) throw error;
    }
  }
  const temp = `${spec.name.slice(0, 40)}__svc_new_${spec.suffix}`;
  await inTransaction(client, async () => {
    await client.query(`create view ${relation(spec.schema, temp)} as\n${spec.sql}\n`);
    await swapIn(client, spec.schema, spec.name, temp, spec.suffix);
  });
}

class FullRefreshNeeded extends Error {}

/** Adds the incremental SELECT's rows to the existing table, in one transaction. */
async function buildIncrement(client: Client, spec: BuildSpec): Promise<{ rows: number; changes: string[] }> {
  const target = relation(spec.schema, spec.name);
  const delta = `__svc_delta_${spec.suffix}`;
  return inTransaction(client, async () => {
    await client.query(
      `create temporary table ${ident(delta)} on commit drop as\n${spec.incrementalSql ?? spec.sql}\n`,
    );
    const incoming = await columnsOf(client, `pg_temp.${ident(delta)}`);
    let existing = await columnsOf(client, target);
    const has = (columns: Column[], name: string) => columns.find((c) => c.name === name);
    const added = incoming.filter((c) => !has(existing, c.name));
    const missing = existing.filter((c) => !has(incoming, c.name));
    const retyped = incoming.filter((c) => {
      const before = has(existing, c.name);
      return before && before.type !== c.type;
    });
    const changes: string[] = [];
    const describe = () =>
      [
        added.length ? `new columns ${added.map((c) => c.name).join(', ')}` : '',
        missing.length ? `columns no longer selected ${missing.map((c) => c.name).join(', ')}` : '',
        retyped.length ? `columns of another type ${retyped.map((c) => `${c.name} (${c.type})`).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ');
    const differs = added.length + missing.length + retyped.length > 0;
    if (differs) {
      switch (spec.onSchemaChange) {
        case 'fail':
          throw new BuildError(`the model's columns changed (on_schema_change: fail): ${describe()}`);
        case 'full_refresh':
          throw new FullRefreshNeeded(describe());
        case 'append_new_columns':
        case 'sync_all_columns':
          for (const c of added) {
            await client.query(`alter table ${target} add column ${ident(c.name)} ${c.type}`);
            changes.push(`added column ${c.name} ${c.type}`);
          }
          if (spec.onSchemaChange === 'sync_all_columns') {
            for (const c of missing) {
              if (spec.uniqueKey.includes(c.name))
                throw new BuildError(`the unique key column ${c.name} is no longer selected`);
              await client.query(`alter table ${target} drop column ${ident(c.name)}`);
              changes.push(`dropped column ${c.name}`);
            }
            for (const c of retyped) {
              await client.query(
                `alter table ${target} alter column ${ident(c.name)} type ${c.type} using ${ident(c.name)}::${c.type}`,
              );
              changes.push(`changed column ${c.name} to ${c.type}`);
            }
          }
          existing = await columnsOf(client, target);
          break;
        case 'ignore':
          break;
      }
    }
    const columns = incoming.filter((c) => has(existing, c.name)).map((c) => c.name);
    for (const key of spec.uniqueKey)
      if (!columns.includes(key)) throw new BuildError(`the unique key column ${key} is not selected by the model`);
    const list = columns.map(ident).join(', ');
    const source = ident(delta);
    const insert = `insert into ${target} (${list}) select ${list} from ${source}`;
    const matches = spec.uniqueKey.map((k) => `t.${ident(k)} = s.${ident(k)}`).join(' and ');
    let rows: number;
    if (spec.strategy === 'append' || spec.uniqueKey.length === 0) {
      rows = (await client.query(insert)).rowCount ?? 0;
    } else if (spec.strategy === 'delete_insert') {
      await client.query(`delete from ${target} t using ${source} s where ${matches}`);
      rows = (await client.query(insert)).rowCount ?? 0;
    } else {
      const updates = columns.filter((c) => !spec.uniqueKey.includes(c));
      rows =
        (
          await client.query(
            `merge into ${target} t using ${source} s on ${matches}
             ${updates.length ? `when matched then update set ${updates.map((c) => `${ident(c)} = s.${ident(c)}`).join(', ')}` : ''}
             when not matched then insert (${list}) values (${columns.map((c) => `s.${ident(c)}`).join(', ')})`,
          )
        ).rowCount ?? 0;
    }
    return { rows, changes };
  });
}

export async function buildModel(client: Client, spec: BuildSpec): Promise<BuildOutcome> {
  switch (spec.materialization) {
    case 'ephemeral':
      return { rows: null, mode: 'ephemeral', schemaChanges: [] };
    case 'view':
      await buildView(client, spec);
      return { rows: null, mode: 'view', schemaChanges: [] };
    case 'table':
      return { rows: await buildTable(client, spec), mode: 'table', schemaChanges: [] };
    case 'incremental': {
      const kind = await relkindOf(client, spec.schema, spec.name);
      if (kind === 'r' && !spec.fullRefresh) {
        try {
          const { rows, changes } = await buildIncrement(client, spec);
          return { rows, mode: 'incremental', schemaChanges: changes };
        } catch (error) {
          if (!(error instanceof FullRefreshNeeded)) throw error;
          const rows = await buildTable(client, spec);
          return { rows, mode: 'full', schemaChanges: [`rebuilt whole: ${error.message}`] };
        }
      }
      return { rows: await buildTable(client, spec), mode: 'full', schemaChanges: [] };
    }
  }
}

/** What a data test counts: the failing rows of the model's relation. */
export function testQuery(
  test: DataTest,
  target: string,
  resolve: { relation(model: string): string; sql(text: string): string },
): { name: string; text: string; values: unknown[] } {
  switch (test.type) {
    case 'not_null':
      return {
        name: `not_null(${test.column})`,
        text: `select count(*) from ${target} where ${ident(test.column)} is null`,
        values: [],
      };
    case 'unique':
      return {
        name: `unique(${test.column})`,
        text: `select count(*) from (select ${ident(test.column)} from ${target} where ${ident(test.column)} is not null group by 1 having count(*) > 1) d`,
        values: [],
      };
    case 'accepted_values':
      return {
        name: `accepted_values(${test.column})`,
        text: `select count(*) from ${target} where ${ident(test.column)} is not null and not (${ident(test.column)}::text = any ($1::text[]))`,
        values: [test.values],
      };
    case 'relationships':
      return {
        name: `relationships(${test.column} -> ${test.to}.${test.field})`,
        text: `select count(*) from ${target} c where c.${ident(test.column)} is not null and not exists (select 1 from ${resolve.relation(test.to)} p where p.${ident(test.field)} = c.${ident(test.column)})`,
        values: [],
      };
    case 'custom_sql':
      return { name: test.name, text: `select count(*) from (\n${resolve.sql(test.sql)}\n) f`, values: [] };
  }
}

/** Runs a model's tests; each failing row count makes it warn or fail by its severity. */
export async function runTests(
  client: Client,
  tests: DataTest[],
  target: string,
  resolve: { relation(model: string): string; sql(text: string): string },
): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const test of tests) {
    const severity = test.severity ?? 'error';
    let name = test.type === 'custom_sql' ? test.name : `${test.type}(${test.column})`;
    try {
      const query = testQuery(test, target, resolve);
      name = query.name;
      const { rows } = await client.query<{ count: string }>(query.text, query.values);
      const failures = Number(rows[0]?.count ?? 0);
      results.push({
        name,
        type: test.type,
        severity,
        status: failures === 0 ? 'pass' : severity === 'warn' ? 'warn' : 'fail',
        failures,
        message: failures === 0 ? null : `${failures} failing row(s)`,
      });
    } catch (error) {
      results.push({
        name,
        type: test.type,
        severity,
        status: 'error',
        failures: null,
        message: (error as Error).message,
      });
    }
  }
  return results;
}
