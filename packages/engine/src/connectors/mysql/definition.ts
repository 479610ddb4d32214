import type { RowDataPacket } from 'mysql2';
import { ConnectorError, type ConnectorContext, type ConnectorDefinition, type ConnectorHandle } from '../../types.js';
import { MysqlClient, mysqlSpec, qualified, quoteIdent, type MysqlConfig } from './client.js';
import { mysqlChangeSource } from './cdc.js';
import { exportTable } from './bulk.js';
import { discoverTables } from './discover.js';
import { readTable } from './read.js';
import { copyTextToLoadData } from './load-text.js';
import { writeTable } from './write.js';

export { mysqlSpec, type MysqlConfig } from './client.js';

/** A handle over a small pool, opened lazily (open() never fails on an unreachable server); close() ends it. */
export function openMysql(config: MysqlConfig, context?: ConnectorContext): ConnectorHandle {
  const client = new MysqlClient(config, context);
  return {
    async check() {
      try {
        const conn = await client.connection();
        try {
          await conn.promise().query('select 1');
        } finally {
          conn.release();
        }
        return { ok: true };
      } catch (error) {
        const classified = client.classify(error);
        context?.log('warn', 'MySQL check failed', {
          code: classified.code,
          host: config.host,
          port: config.port ?? 3306,
          user: config.user,
        });
        return { ok: false, code: classified.code, message: classified.message };
      }
    },
    async discover() {
      const conn = await client.connection();
      try {
        return await discoverTables(conn, config.database);
      } catch (error) {
        throw client.classify(error);
      } finally {
        conn.release();
      }
    },
    read(request, signal) {
      return readTable(client, request, config.database, signal);
    },
    exportBulk(request, signal) {
      return exportTable(client, request, config.database, signal);
    },
    async keyBounds(dataset, column) {
      const conn = await client.connection();
      try {
        const [rows] = await conn
          .promise()
          .query<RowDataPacket[]>(
            `select min(${quoteIdent(column)}) as min, max(${quoteIdent(column)}) as max from ${qualified(dataset.namespace ?? config.database, dataset.name)}`,
          );
        const row = rows[0];
        return row && row['min'] !== null ? { min: String(row['min']), max: String(row['max']) } : null;
      } catch (error) {
        throw client.classify(error);
      } finally {
        conn.release();
      }
    },
    write(request, batches, signal) {
      return writeTable(client, request, config.database, { batches }, signal);
    },
    // COPY text (a PostgreSQL source, the warehouse, this connector's own export) rewritten as LOAD
    // DATA text on the way, no value decoded.
    bulkFormats: ['postgres-copy-text'],
    async importBulk(request, bulk, signal) {
      if (bulk.format !== 'postgres-copy-text')
        throw new ConnectorError('unsupported', `a MySQL destination takes no ${bulk.format} bulk stream`, false);
      const text = copyTextToLoadData(bulk.columns.map((c) => c.type));
      (bulk.stream as NodeJS.ReadableStream).pipe(text);
      bulk.stream.on('error', (error: Error) => text.destroy(error));
      try {
        return await writeTable(client, request, config.database, { text }, signal);
      } finally {
        bulk.stream.destroy();
      }
    },
    changeSource(captureId) {
      return mysqlChangeSource(config, captureId, context);
    },
    async close() {
      await client.close();
    },
  };
}

export const mysqlConnector: ConnectorDefinition<typeof mysqlSpec> = {
  kind: 'mysql',
  title: 'MySQL / MariaDB',
  version: 1,
  spec: mysqlSpec,
  capabilities: { read: true, write: true, writeModes: ['append', 'overwrite', 'upsert'] },
  async open(config, context) {
    return openMysql(config, context);
  },
};
