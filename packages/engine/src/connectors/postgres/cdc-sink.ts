/**
 * Applies captured changes to a PostgreSQL table. Every apply is one transaction that also saves the
 * source position in `_svc_cdc_positions` of the target schema: the position and the changes it
 * covers commit together, so a restart resumes exactly after what was applied.
 *
 * mirror: consecutive upserts (and deletes) are grouped into multi-row statements; within a group a
 * key keeps its last version (an unchanged TOAST value of a later version takes the earlier one's),
 * and the groups run in order. changelog: every change is appended with `_svc_op`, `_svc_position`,
 * `_svc_commit_time` (and `_svc_seq`, its order in the transaction).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { ApplyMode, CdcSnapshot, ChangeSink, RowChange, SourceTransaction } from '../../cdc/types.js';
import {
  jsonTextOf,
  type ColumnSchema,
  type DatasetRef,
  type EgressPolicy,
  type RecordBatch,
  type Value,
} from '../../types.js';
import { classify, connect, ensureSchema, qualified, quoteIdent, type PostgresConfig } from './client.js';
import { ddlType } from './type-mapping.js';
import { copyInto, existingColumns } from './write.js';

export const POSITIONS_TABLE = '_svc_cdc_positions';
/** Bind parameters per statement stay well under PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;
/**
 * From this many upserts of one shape, they are copied (COPY) into a temporary staging table and
 * merged with one INSERT ... SELECT ... ON CONFLICT: much cheaper, on both sides, than a statement
 * with tens of thousands of bind parameters.
 */
const STAGE_FROM_ROWS = 64;

const CHANGELOG_COLUMNS: ColumnSchema[] = [
  { name: '_svc_op', type: 'string', sourceType: 'text', nullable: false },
  { name: '_svc_position', type: 'string', sourceType: 'text', nullable: false },
  { name: '_svc_commit_time', type: 'timestamptz', sourceType: 'timestamptz', nullable: true },
  { name: '_svc_seq', type: 'int32', sourceType: 'integer', nullable: false },
];

/** A value as a bind parameter: JSON as text (node-pg would send an array as a PostgreSQL array). */
const parameter = (value: Value, column: ColumnSchema) =>
  value === null || value === undefined ? null : column.type === 'json' ? jsonTextOf(value) : value;

interface Upsert {
  columns: ColumnSchema[];
  values: Value[];
  /** Columns to write (unchanged TOAST values are left out). */
  written: boolean[];
}

export function postgresChangeSink(config: PostgresConfig, defaultSchema: string, egress?: EgressPolicy): ChangeSink {
  let client: pg.Client | undefined;
  const ready = async () => (client ??= await connect(config, egress));
  const known = new Map<string, Set<string>>();
  /** Staging tables created in this session (temporary: they go with the connection). */
  const stages = new Set<string>();
  /** Staging tables used in the current destination transaction (emptied at its commit). */
  const dirtyStages = new Set<string>();
  /** Whether this login may create temporary tables (a DBA may have revoked TEMP from PUBLIC). */
  let mayStage: boolean | undefined;

  const schemaOf = (target: DatasetRef) => target.namespace ?? defaultSchema;
  /** Positions live in the connector's own schema, whatever schema the targets are in. */
  const positions = qualified(defaultSchema, POSITIONS_TABLE);

  const ensurePositions = async (c: pg.Client) => {
    await ensureSchema(c, defaultSchema);
    await c.query(
      `create table if not exists ${positions} (capture_id text primary key, position text not null, updated_at timestamptz not null default now())`,
    );
  };
  const savePosition = (c: pg.Client, captureId: string, position: string) =>
    c.query(
      `insert into ${positions} (capture_id, position) values ($1, $2) on conflict (capture_id) do update set position = excluded.position, updated_at = now()`,
      [captureId, position],
    );

  /** Adds the columns a change carries that the target lacks (a column added at the source). */
  const widen = async (c: pg.Client, target: DatasetRef, columns: ColumnSchema[]) => {
    const key = `${schemaOf(target)}.${target.name}`;
    let have = known.get(key);
    if (!have) {
      have = new Set(await existingColumns(c, schemaOf(target), target.name));
      known.set(key, have);
    }
    for (const column of columns) {
      if (have.has(column.name)) continue;
      await c.query(
        `alter table ${qualified(schemaOf(target), target.name)} add column if not exists ${quoteIdent(column.name)} ${ddlType(column)}`,
      );
      have.add(column.name);
    }
  };

  const upsertAll = async (c: pg.Client, table: string, primaryKey: string[], rows: Upsert[]) => {
    // One statement per shape (which columns are written); chunks keep the parameters bounded.
    const shapes = new Map<string, Upsert[]>();
    // Rows of one relation share their columns array: its shape is worked out once when all is written.
    const whole = new Map<ColumnSchema[], string>();
    for (const row of rows) {
      let shape = row.written.every(Boolean) ? whole.get(row.columns) : undefined;
      if (shape === undefined) {
        shape = row.columns
          .filter((_, i) => row.written[i])
          .map((col) => col.name)
          .join('\u0000');
        if (row.written.every(Boolean)) whole.set(row.columns, shape);
      }
      const group = shapes.get(shape);
      if (group) group.push(row);
      else shapes.set(shape, [row]);
    }
    for (const group of shapes.values()) {
      const first = group[0]!;
      const columns = first.columns.filter((_, i) => first.written[i]);
      const updates = columns
        .filter((col) => !primaryKey.includes(col.name))
        .map((col) => `${quoteIdent(col.name)} = excluded.${quoteIdent(col.name)}`);
      const conflict = `on conflict (${primaryKey.map(quoteIdent).join(', ')}) do ${updates.length ? `update set ${updates.join(', ')}` : 'nothing'}`;
      const names = columns.map((col) => quoteIdent(col.name)).join(', ');
      if (group.length >= STAGE_FROM_ROWS && mayStage === undefined) {
        const { rows: privileges } = await c.query<{ temp: boolean }>(
          "select has_database_privilege(current_database(), 'TEMPORARY') as temp",
        );
        mayStage = privileges[0]?.temp === true;
      }
      if (group.length >= STAGE_FROM_ROWS && mayStage) {
        const stage = await stageFor(c, table, columns);
        if (dirtyStages.has(stage)) await c.query(`delete from ${stage}`);
        dirtyStages.add(stage);
        const rows = group.map((row) =>
          row.written.every(Boolean) ? row.values : row.values.filter((_, i) => row.written[i]),
        );
        await copyInto(
          c,
          stage,
          columns,
          (async function* () {
            yield { columns, rows };
          })(),
          { written: 0 },
        );
        await c.query(`insert into ${table} (${names}) select ${names} from ${stage} ${conflict}`);
        continue;
      }
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
      for (let start = 0; start < group.length; start += perStatement) {
        const chunk = group.slice(start, start + perStatement);
        const params: unknown[] = [];
        const tuples = chunk.map((row) => {
          const items = row.columns.flatMap((col, i) => {
            if (!row.written[i]) return [];
            params.push(parameter(row.values[i] ?? null, col));
            return [`$${params.length}::${ddlType(col)}`];
          });
          return `(${items.join(', ')})`;
        });
        await c.query(`insert into ${table} (${names}) values ${tuples.join(', ')} ${conflict}`, params);
      }
    }
  };

  /** A temporary table with these columns for rows bound for `table` (made once per session). */
  const stageFor = async (c: pg.Client, table: string, columns: ColumnSchema[]) => {
    const shape = [table, ...columns.map((col) => `${col.name}\u0000${ddlType(col)}`)].join('\u0001');
    const stage = quoteIdent(`_svc_stage_${createHash('sha256').update(shape).digest('hex').slice(0, 24)}`);
    if (!stages.has(stage)) {
      await c.query(
        `create temporary table if not exists ${stage} (${columns.map((col) => `${quoteIdent(col.name)} ${ddlType(col)}`).join(', ')}) on commit delete rows`,
      );
      stages.add(stage);
    }
    return stage;
  };

  const deleteAll = async (c: pg.Client, table: string, primaryKey: ColumnSchema[], keys: Value[][]) => {
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / primaryKey.length));
    for (let start = 0; start < keys.length; start += perStatement) {
      const params: unknown[] = [];
      const tuples = keys
        .slice(start, start + perStatement)
        .map(
          (key) =>
            `(${primaryKey.map((col, i) => (params.push(parameter(key[i] ?? null, col)), `$${params.length}::${ddlType(col)}`)).join(', ')})`,
        );
      await c.query(
        `delete from ${table} where (${primaryKey.map((col) => quoteIdent(col.name)).join(', ')}) in (${tuples.join(', ')})`,
        params,
      );
    }
  };

  /** An update that changed the key and left some values unsent: the new row takes them from the old one. */
  const moveRow = async (c: pg.Client, table: string, primaryKey: string[], change: RowChange) => {
    const params: unknown[] = [];
    const items = change.columns.map((col, i) => {
      if (change.unchanged?.[i]) return quoteIdent(col.name);
      params.push(parameter(change.values![i] ?? null, col));
      return `$${params.length}::${ddlType(col)}`;
    });
    const keyColumns = primaryKey.map((k) => change.columns.find((col) => col.name === k)!);
    const where = keyColumns.map((col, i) => {
      params.push(parameter(change.oldKey![i] ?? null, col));
      return `${quoteIdent(col.name)} = $${params.length}::${ddlType(col)}`;
    });
    const names = change.columns.map((col) => quoteIdent(col.name)).join(', ');
    const updates = change.columns
      .filter((col) => !primaryKey.includes(col.name))
      .map((col) => `${quoteIdent(col.name)} = excluded.${quoteIdent(col.name)}`);
    await c.query(
      `insert into ${table} (${names}) select ${items.join(', ')} from ${table} where ${where.join(' and ')}
       on conflict (${primaryKey.map(quoteIdent).join(', ')}) do ${updates.length ? `update set ${updates.join(', ')}` : 'nothing'}`,
      params,
    );
    params.length = 0;
    await c.query(
      `delete from ${table} where ${keyColumns.map((col, i) => (params.push(parameter(change.oldKey![i] ?? null, col)), `${quoteIdent(col.name)} = $${params.length}::${ddlType(col)}`)).join(' and ')}`,
      params,
    );
  };

  const applyMirror = async (
    c: pg.Client,
    target: DatasetRef,
    primaryKey: string[],
    transactions: SourceTransaction[],
  ) => {
    const table = qualified(schemaOf(target), target.name);
    let upserts = new Map<string, Upsert>();
    let deletes = new Map<string, Value[]>();
    let keyColumns: ColumnSchema[] = [];
    let applied = 0;
    const flush = async () => {
      if (upserts.size) await upsertAll(c, table, primaryKey, [...upserts.values()]);
      if (deletes.size) await deleteAll(c, table, keyColumns, [...deletes.values()]);
      upserts = new Map();
      deletes = new Map();
    };
    // Changes of one relation share their columns array: what depends on it is worked out once.
    let lastColumns: ColumnSchema[] | undefined;
    let keyIndexes: number[] = [];
    const keyOf = (values: Value[]) => JSON.stringify(keyIndexes.map((i) => (i < 0 ? null : (values[i] ?? null))));
    for (const transaction of transactions) {
      for (const change of transaction.changes) {
        applied += 1;
        if (change.columns !== lastColumns) {
          lastColumns = change.columns;
          keyIndexes = primaryKey.map((k) => change.columns.findIndex((col) => col.name === k));
          keyColumns = primaryKey.map(
            (k) =>
              change.columns.find((col) => col.name === k) ?? {
                name: k,
                type: 'string',
                sourceType: 'text',
                nullable: false,
              },
          );
          await widen(c, target, change.columns);
        }
        if (change.op === 'truncate') {
          await flush();
          await c.query(`truncate table ${table}`);
          continue;
        }
        const oldKey = change.oldKey ? JSON.stringify(change.oldKey) : undefined;
        const removesOldKey =
          change.op === 'delete' ||
          (change.op === 'update' && oldKey !== undefined && change.values && oldKey !== keyOf(change.values));
        if (removesOldKey && change.op === 'update' && change.unchanged?.some(Boolean)) {
          // A new key, and values the source did not send again (unchanged TOAST): they are in the
          // destination's row under the old key. Copy them across, then remove the old row.
          await flush();
          await moveRow(c, table, primaryKey, change);
          continue;
        }
        if (removesOldKey) {
          // Deletes run after the group's upserts: an upsert of this key must go first.
          if (upserts.has(oldKey!)) upserts.delete(oldKey!);
          if (upserts.size) await flush();
          deletes.set(oldKey!, change.oldKey!);
          if (change.op === 'delete') continue;
        }
        const values = change.values!;
        const key = keyOf(values);
        if (deletes.has(key)) await flush(); // re-inserted after a delete in this group
        const written = change.columns.map((_, i) => !change.unchanged?.[i]);
        const earlier = upserts.get(key);
        if (earlier && earlier.columns.length === change.columns.length) {
          // Same key twice in one group: the later version wins, keeping what it did not send.
          upserts.set(key, {
            columns: change.columns,
            values: values.map((v, i) => (written[i] ? v : earlier.values[i]!)),
            written: written.map((w, i) => w || earlier.written[i]!),
          });
        } else {
          if (earlier) await flush();
          upserts.set(key, { columns: change.columns, values, written });
        }
      }
    }
    await flush();
    return applied;
  };

  const ensureChangelog = async (c: pg.Client, target: DatasetRef, columns: ColumnSchema[]) => {
    const schema = schemaOf(target);
    await ensureSchema(c, schema);
    await c.query(
      `create table if not exists ${qualified(schema, target.name)} (${[...columns, ...CHANGELOG_COLUMNS].map((col) => `${quoteIdent(col.name)} ${ddlType(col)}`).join(', ')})`,
    );
  };

  const applyChangelog = async (
    c: pg.Client,
    target: DatasetRef,
    primaryKey: string[],
    transactions: SourceTransaction[],
  ) => {
    const table = qualified(schemaOf(target), target.name);
    let applied = 0;
    // One COPY per column layout, in order.
    let layout: ColumnSchema[] | undefined;
    let rows: Value[][] = [];
    const flush = async () => {
      if (layout && rows.length) {
        const batch: RecordBatch = { columns: layout, rows };
        await copyInto(
          c,
          table,
          layout,
          (async function* () {
            yield batch;
          })(),
          { written: 0 },
        );
      }
      rows = [];
    };
    for (const transaction of transactions) {
      for (const [seq, change] of transaction.changes.entries()) {
        applied += 1;
        await widen(c, target, change.columns);
        const columns = [...change.columns, ...CHANGELOG_COLUMNS];
        if (!layout || layout.map((col) => col.name).join() !== columns.map((col) => col.name).join()) {
          await flush();
          layout = columns;
        }
        const values = change.values
          ? change.values.map((v, i) => (change.unchanged?.[i] ? null : v))
          : change.columns.map((col) =>
              change.oldKey && primaryKey.includes(col.name)
                ? (change.oldKey[primaryKey.indexOf(col.name)] ?? null)
                : null,
            );
        rows.push([...values, change.op, transaction.position, transaction.commitTime, seq]);
      }
    }
    await flush();
    return applied;
  };

  return {
    async position(captureId) {
      const c = await ready();
      const { rows } = await c
        .query<{ position: string }>(`select position from ${positions} where capture_id = $1`, [captureId])
        .catch((error: { code?: string }) => (error.code === '42P01' ? { rows: [] } : Promise.reject(classify(error))));
      return rows[0]?.position ?? null;
    },

    async loadSnapshot(captureId, target, mode: ApplyMode, snapshot: CdcSnapshot, signal) {
      const c = await ready();
      const schema = schemaOf(target);
      const table = qualified(schema, target.name);
      try {
        await c.query('begin');
        await ensurePositions(c);
        let count: number;
        if (mode === 'mirror') {
          // The snapshot replaces the table: readers see the old rows until this commits.
          await ensureSchema(c, schema);
          await c.query(`drop table if exists ${table}`);
          await c.query(
            `create table ${table} (${snapshot.columns.map((col) => `${quoteIdent(col.name)} ${ddlType(col)}`).join(', ')}, primary key (${snapshot.primaryKey.map(quoteIdent).join(', ')}))`,
          );
          count = await copyInto(c, table, snapshot.columns, snapshot.rows, { written: 0 }, signal);
        } else {
          await ensureChangelog(c, target, snapshot.columns);
          const columns = [...snapshot.columns, ...CHANGELOG_COLUMNS];
          const commitTime = new Date().toISOString();
          const tagged = async function* (): AsyncIterable<RecordBatch> {
            for await (const batch of snapshot.rows)
              yield { columns, rows: batch.rows.map((row) => [...row, 'snapshot', snapshot.position, commitTime, 0]) };
          };
          count = await copyInto(c, table, columns, tagged(), { written: 0 }, signal);
        }
        await savePosition(c, captureId, snapshot.position);
        await c.query('commit');
        known.delete(`${schema}.${target.name}`);
        return count;
      } catch (error) {
        await c.query('rollback').catch(() => undefined);
        throw classify(error);
      }
    },

    async apply(captureId, target, mode, primaryKey, transactions) {
      if (transactions.length === 0) return 0;
      const c = await ready();
      dirtyStages.clear();
      try {
        await c.query('begin');
        const applied =
          mode === 'mirror'
            ? await applyMirror(c, target, primaryKey, transactions)
            : await applyChangelog(c, target, primaryKey, transactions);
        await savePosition(c, captureId, transactions.at(-1)!.position);
        await c.query('commit');
        return applied;
      } catch (error) {
        await c.query('rollback').catch(() => undefined);
        known.clear(); // an added column may have been rolled back
        stages.clear(); // and so may a staging table made in this transaction
        throw classify(error);
      }
    },

    async forget(captureId) {
      const c = await ready();
      await c.query(`delete from ${positions} where capture_id = $1`, [captureId]).catch((error: { code?: string }) => {
        if (error.code !== '42P01') throw classify(error);
      });
    },

    async close() {
      await client?.end().catch(() => undefined);
      client = undefined;
      stages.clear();
      mayStage = undefined;
    },
  };
}
