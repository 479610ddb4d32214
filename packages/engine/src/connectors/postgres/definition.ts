import type pg from 'pg';
import { egressOf } from '../../egress.js';
import type { ConnectorDefinition, ConnectorHandle, EgressPolicy } from '../../types.js';
import { classify, connect, postgresSpec, type PostgresConfig, type PostgresHostConfig } from './client.js';
import { postgresChangeSource } from './cdc.js';
import { postgresChangeSink } from './cdc-sink.js';
import { postgresMessageSink } from './stream-sink.js';
import { discoverSchema } from './discover.js';
import { exportTable, keyBounds, readTable } from './read.js';
import { batchLoader, bulkLoader, stagedLoader, writeTable } from './write.js';

/**
 * One connection per handle: opened lazily, closed by close(). `egress` checks every connection to a
 * server the user named; the host's own server (the built-in warehouse) is opened without one.
 */
export function openPostgres(config: PostgresConfig, egress?: EgressPolicy): ConnectorHandle {
  const schema = config.schema ?? 'public';
  let client: Awaited<ReturnType<typeof connect>> | undefined;
  const ready = async () => (client ??= await connect(config, egress));
  // An abort must also stop a statement in flight (a long FETCH or COPY): cancel it from a second connection.
  const cancelOnAbort = (signal: AbortSignal | undefined, c: pg.Client) => {
    const pid = (c as unknown as { processID?: number }).processID;
    const onAbort = () => {
      if (!pid) return;
      void connect(config, egress)
        .then(async (other) => {
          await other.query('select pg_cancel_backend($1)', [pid]).catch(() => undefined);
          await other.end();
        })
        .catch(() => undefined);
    };
    // Aborted before the statement started (a cancel that came while it was being prepared): the
    // listener would never fire.
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    return () => signal?.removeEventListener('abort', onAbort);
  };
  return {
    sqlDialect: 'postgres',
    async check() {
      try {
        const c = await ready();
        const { rows } = await c.query<{ present: boolean; usable: boolean; creatable: boolean }>(
          `select exists (select 1 from pg_namespace where nspname = $1) as present,
                  (select has_schema_privilege(oid, 'USAGE') from pg_namespace where nspname = $1) as usable,
                  has_database_privilege(current_database(), 'CREATE') as creatable`,
          [schema],
        );
        const state = rows[0]!;
        if (!state.present) {
          // Writing creates the schema; reading from it has nothing to read yet.
          return state.creatable
            ? { ok: true, detail: `schema "${schema}" does not exist yet; the first write creates it` }
            : {
                ok: false,
                code: 'missing_privilege',
                message: `schema "${schema}" does not exist and the user may not create it`,
              };
        }
        if (!state.usable)
          return { ok: false, code: 'missing_privilege', message: `no USAGE privilege on schema "${schema}"` };
        return { ok: true };
      } catch (error) {
        const classified = classify(error);
        return { ok: false, code: classified.code, message: classified.message };
      }
    },
    async discover() {
      try {
        return await discoverSchema(await ready(), schema);
      } catch (error) {
        throw classify(error);
      }
    },
    async *read(request, signal) {
      const c = await ready();
      const release = cancelOnAbort(signal, c);
      try {
        yield* readTable(c, request, schema, signal);
      } finally {
        release();
      }
    },
    async write(request, batches, signal) {
      const c = await ready();
      const release = cancelOnAbort(signal, c);
      const discard = async () => {
        for await (const batch of batches) void batch;
      };
      try {
        return await writeTable(c, request, schema, batchLoader(c, request.columns, batches, signal), discard);
      } finally {
        release();
      }
    },
    async keyBounds(dataset, column) {
      return keyBounds(await ready(), dataset, column, schema);
    },
    async exportBulk(request, signal) {
      const c = await ready();
      const bulk = await exportTable(c, request, schema);
      const release = cancelOnAbort(signal, c);
      bulk.stream.on('close', release);
      return bulk;
    },
    bulkFormats: ['postgres-copy-text', 'csv'],
    async importBulk(request, bulk, signal) {
      const c = await ready();
      const release = cancelOnAbort(signal, c);
      try {
        return await writeTable(
          c,
          request,
          schema,
          bulkLoader(c, request.columns, bulk),
          async () => void bulk.stream.destroy(),
        );
      } finally {
        release();
      }
    },
    async importStaged(request, bulk, select, signal) {
      const c = await ready();
      const release = cancelOnAbort(signal, c);
      try {
        const load = stagedLoader(c, bulk, request.columns, select);
        const summary = await writeTable(c, request, schema, load, async () => void bulk.stream.destroy());
        return { ...summary, rowsStaged: load.staged.rows };
      } finally {
        release();
      }
    },
    changeSource: (captureId) => postgresChangeSource(config, schema, captureId, egress),
    changeSink: () => postgresChangeSink(config, schema, egress),
    messageSink: () => postgresMessageSink(config, schema, egress),
    async close() {
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}

export { postgresSpec };

export const postgresConnector: ConnectorDefinition<typeof postgresSpec, PostgresHostConfig> = {
  kind: 'postgres',
  title: 'PostgreSQL',
  version: 1,
  spec: postgresSpec,
  capabilities: { read: true, write: true, writeModes: ['append', 'overwrite', 'upsert'] },
  async open(config, context) {
    return openPostgres(config, egressOf(context));
  },
};
