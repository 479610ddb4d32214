import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { EventStreams } from '../../../platform/sse.js';
import { logChannel, type CdcLogLine } from './logs.js';
import type { CdcService } from './service.js';

const Uuid = Type.String({ format: 'uuid' });
const Params = Type.Object({ id: Uuid });
const Side = Type.Object(
  {
    connector_id: Uuid,
    namespace: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()], { description: "Schema or database; the connector's own when omitted" })),
    table: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);
const Status = Type.Union([Type.Literal('snapshotting'), Type.Literal('streaming'), Type.Literal('paused'), Type.Literal('failed')]);
const CdcTable = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  source: Type.Object({ connector_id: Uuid, namespace: Type.Union([Type.String(), Type.Null()]), table: Type.String() }),
  destination: Type.Object({ connector_id: Uuid, namespace: Type.Union([Type.String(), Type.Null()]), table: Type.String() }),
  mode: Type.Union([Type.Literal('mirror'), Type.Literal('changelog')]),
  desired_state: Type.Union([Type.Literal('running'), Type.Literal('stopped')]),
  status: Status,
  resync_requested: Type.Boolean(),
  last_position: Type.Union([Type.String(), Type.Null()], { description: 'Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position)' }),
  last_commit_time: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_applied_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  changes_applied: Type.Integer(),
  snapshot_rows: Type.Union([Type.Integer(), Type.Null()]),
  lag_seconds: Type.Union([Type.Number(), Type.Null()], { description: 'From source commit to applied, of the latest transaction; grows while the reader is behind or down' }),
  lag_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Change data at the source past the applied position' }),
  retained_wal_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'PostgreSQL: WAL the replication slot holds' }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  reader: Type.Union([Type.String(), Type.Null()], { description: 'The worker reading it now' }),
  created_by: Type.Union([Uuid, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
const LogLine = Type.Object({ id: Type.String(), ts: Type.String({ format: 'date-time' }), level: Type.String(), message: Type.String() }, { additionalProperties: true });

export const cdcRoutes: FastifyPluginAsyncTypebox<{ service: CdcService; shared: SharedState; streams: EventStreams }> = async (app, { service, shared, streams }) => {
  const tags = ['ingestion'];
  app.post('/cdc-tables', {
    config: { capability: 'cdc:write' },
    schema: {
      operationId: 'createCdcTable',
      tags,
      summary: 'Keep a destination table equal to a source table: snapshot, then every change (cdc:write)',
      body: Type.Object(
        {
          project_id: Uuid,
          name: Type.String({ minLength: 1, maxLength: 200 }),
          source: Side,
          destination: Side,
          mode: Type.Union([Type.Literal('mirror'), Type.Literal('changelog')], { description: 'mirror: upsert and delete by primary key; changelog: append every change with operation, source position and commit time' }),
          start: Type.Optional(Type.Boolean({ description: 'Start at once (default true)' })),
        },
        { additionalProperties: false },
      ),
      response: { 201: CdcTable },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), request.body, requestContext(request))),
  });
  app.get('/cdc-tables', {
    config: { capability: 'cdc:read' },
    schema: {
      operationId: 'listCdcTables',
      tags,
      summary: 'CDC tables with their status (cdc:read)',
      querystring: Type.Object({ project_id: Type.Optional(Uuid) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(CdcTable) }) },
    },
    handler: async (request) => ({ items: await service.list(principalOf(request), request.query.project_id) }),
  });
  app.get('/cdc-tables/:id', {
    config: { capability: 'cdc:read' },
    schema: { operationId: 'getCdcTable', tags, summary: 'One CDC table: status, position, lag, counters, last error (cdc:read)', params: Params, response: { 200: CdcTable } },
    handler: async (request) => service.get(principalOf(request), request.params.id),
  });
  app.patch('/cdc-tables/:id', {
    config: { capability: 'cdc:write' },
    schema: {
      operationId: 'updateCdcTable',
      tags,
      summary: 'Rename a CDC table; what it captures is fixed (create another) (cdc:write)',
      params: Params,
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
      response: { 200: CdcTable },
    },
    handler: async (request) => service.rename(principalOf(request), request.params.id, request.body.name, requestContext(request)),
  });
  app.delete('/cdc-tables/:id', {
    config: { capability: 'cdc:write' },
    schema: {
      operationId: 'deleteCdcTable',
      tags,
      summary: 'Stop and delete a CDC table, dropping its replication slot and publication at the source (cdc:write)',
      params: Params,
      querystring: Type.Object({ force: Type.Optional(Type.Boolean({ description: 'Delete even when the source cannot be reached to drop the slot' })) }, { additionalProperties: false }),
      response: { 204: { type: 'null' } },
    },
    handler: async (request, reply) => {
      await service.remove(principalOf(request), request.params.id, request.query.force ?? false, requestContext(request));
      return reply.code(204).send(null);
    },
  });
  for (const [action, summary] of [
    ['start', 'Start (or restart after a failure): resumes after the applied position'],
    ['stop', 'Stop reading; the position is kept and the slot keeps the changes meanwhile'],
    ['resync', 'Start over: a new snapshot replaces the destination (mirror) or is appended (changelog), then streaming'],
  ] as const) {
    app.post(`/cdc-tables/:id/${action}`, {
      config: { capability: 'cdc:write' },
      schema: { operationId: `${action}CdcTable`, tags, summary: `${summary} (cdc:write)`, params: Params, response: { 200: CdcTable } },
      handler: async (request) => service[action](principalOf(request), request.params.id, requestContext(request)),
    });
  }
  app.get('/cdc-tables/:id/logs', {
    config: { capability: 'cdc:read' },
    schema: {
      operationId: 'getCdcTableLogs',
      tags,
      summary: 'Log lines of a CDC table, oldest first; after_id continues (cdc:read)',
      params: Params,
      querystring: Type.Object({ after_id: Type.Optional(Type.String({ pattern: '^[0-9]+$' })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(LogLine) }) },
    },
    handler: async (request) => ({ items: await service.logs(principalOf(request), request.params.id, request.query.after_id, request.query.limit ?? 500) }),
  });
  app.get('/cdc-tables/:id/logs/stream', {
    config: { sseQueryToken: true, capability: 'cdc:read' },
    schema: {
      operationId: 'streamCdcTableLogs',
      tags,
      summary:
        'Live log lines (Server-Sent Events, cdc:read): events `log` with JSON {id, ts, level, message, ...}, the line id as event id; a `: heartbeat` comment every 15 s; Last-Event-ID (header or last_event_id) resumes after that line, else the latest 100 lines come first. The access token goes in `token` (personal tokens are refused here). The stream ends with its credential (expiry, sign-out, revocation, disabled user, lost membership or cdc:read), after a final event `end` with JSON {reason, detail}: do not reconnect with the same token',
      params: Params,
      querystring: Type.Object(
        { token: Type.Optional(Type.String({ description: 'Access token (EventSource cannot send headers)' })), last_event_id: Type.Optional(Type.String({ pattern: '^[0-9]+$' })) },
        { additionalProperties: false },
      ),
      response: { 200: { description: 'text/event-stream', type: 'string' } },
    },
    handler: async (request, reply) => {
      const header = request.headers['last-event-id'];
      const lastEventId = [typeof header === 'string' ? header : undefined, request.query.last_event_id].find((v) => v !== undefined && /^[0-9]+$/.test(v));
      const principal = principalOf(request);
      const id = request.params.id;
      // Subscribe before reading the history, so no line falls between the two; lines seen twice are sent once.
      const early: CdcLogLine[] = [];
      let live = false;
      let lastSent = BigInt(lastEventId ?? 0);
      const send = (line: CdcLogLine) => {
        if (BigInt(line.id) <= lastSent) return;
        lastSent = BigInt(line.id);
        stream.send('log', JSON.stringify(line), line.id);
      };
      const unsubscribe = await shared.subscribe(logChannel(id), (message) => {
        let line: CdcLogLine;
        try {
          line = JSON.parse(message) as CdcLogLine;
        } catch {
          return;
        }
        if (live) send(line);
        else early.push(line);
      });
      let tail: Awaited<ReturnType<CdcService['tailStart']>>;
      try {
        tail = await service.tailStart(principal, id, lastEventId);
      } catch (error) {
        await unsubscribe();
        throw error;
      }
      // The stream ends with the right to read it: the credential, and cdc:read in the table's project.
      const stream = streams.open(request, reply, {
        recheck: (current) => service.authorizeTail(current, tail.projectId),
        onEnd: () => void unsubscribe(),
      });
      for (const line of tail.lines as CdcLogLine[]) send(line);
      for (const line of early) send(line);
      live = true;
    },
  });
};
