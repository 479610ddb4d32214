import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { principalOf, type Principal } from '../../../platform/authn.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { apiRoutes, resourceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import { eventStreamRoute, lastEventIdOf, type EventStreams } from '../../../platform/sse.js';
import { LagPoint } from '../lag-samples.js';
import { logChannel, type CdcLogLine } from './logs.js';
import { CdcTable, CreateCdcTableBody, DeleteQuery, LogLine, LogQuery, RenameCdcTableBody } from './schemas.js';
import type { CdcService } from './service.js';

export const cdcRoutes: FastifyPluginAsyncTypebox<{
  service: CdcService;
  shared: SharedState;
  streams: EventStreams;
}> = async (app, { service, shared, streams }) => {
  const tags = ['ingestion'];
  const route = apiRoutes(app, tags);
  // A CDC table is renamed, nothing else (what it captures is fixed); deleting it may be forced.
  const tables = {
    ...service,
    update: (principal: Principal, id: string, input: Static<typeof RenameCdcTableBody>, context: RequestContext) =>
      service.rename(principal, id, input.name, context),
    remove: (principal: Principal, id: string, context: RequestContext, query: Static<typeof DeleteQuery>) =>
      service.remove(principal, id, query.force ?? false, context),
  };
  resourceRoutes(route, tables, {
    path: '/cdc-tables',
    noun: 'CdcTable',
    capabilities: { read: 'cdc:read', write: 'cdc:write' },
    schemas: { item: CdcTable, create: CreateCdcTableBody, update: RenameCdcTableBody, removeQuery: DeleteQuery },
    summaries: {
      list: 'CDC tables with their status (cdc:read)',
      create: 'Keep a destination table equal to a source table: snapshot, then every change (cdc:write)',
      get: 'One CDC table: status, position, lag, counters, last error (cdc:read)',
      update: 'Rename a CDC table; what it captures is fixed (create another) (cdc:write)',
      remove: 'Stop and delete a CDC table, dropping its replication slot and publication at the source (cdc:write)',
    },
  });
  for (const [action, summary] of [
    ['start', 'Start (or restart after a failure): resumes after the applied position'],
    ['stop', 'Stop reading; the position is kept and the slot keeps the changes meanwhile'],
    [
      'resync',
      'Start over: a new snapshot replaces the destination (mirror) or is appended (changelog), then streaming',
    ],
  ] as const) {
    route.post(
      `/cdc-tables/:id/${action}`,
      'cdc:write',
      {
        operationId: `${action}CdcTable`,
        summary: `${summary} (cdc:write)`,
        params: IdParams,
        response: { 200: CdcTable },
      },
      (request, principal, context) => service[action](principal, request.params.id, context),
    );
  }
  route.get(
    '/cdc-tables/:id/lag-history',
    'cdc:read',
    {
      operationId: 'getCdcTableLagHistory',
      summary: 'Lag over the last hour, oldest first: one sample every SVC_LAG_SAMPLE_SECONDS (cdc:read)',
      params: IdParams,
      response: { 200: Items(LagPoint) },
    },
    async (request, principal) => ({ items: await service.lagHistory(principal, request.params.id) }),
  );
  route.get(
    '/cdc-tables/:id/logs',
    'cdc:read',
    {
      operationId: 'getCdcTableLogs',
      summary: 'Log lines of a CDC table, oldest first; after_id continues (cdc:read)',
      params: IdParams,
      querystring: LogQuery,
      response: { 200: Items(LogLine) },
    },
    async (request, principal) => ({
      items: await service.logs(principal, request.params.id, request.query.after_id, request.query.limit ?? 500),
    }),
  );
  app.get('/cdc-tables/:id/logs/stream', {
    ...eventStreamRoute('cdc:read', {
      operationId: 'streamCdcTableLogs',
      tags,
      summary:
        'Live log lines (Server-Sent Events, cdc:read): events `log` with JSON {id, ts, level, message, ...}, the line id as event id; a `: heartbeat` comment every 15 s; Last-Event-ID (header or last_event_id) resumes after that line, else the latest 100 lines come first. The access token goes in `token` (personal tokens are refused here). The stream ends with its credential (expiry, sign-out, revocation, disabled user, lost membership or cdc:read), after a final event `end` with JSON {reason, detail}: do not reconnect with the same token',
      params: IdParams,
    }),
    handler: async (request, reply) => {
      const lastEventId = lastEventIdOf(request);
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
