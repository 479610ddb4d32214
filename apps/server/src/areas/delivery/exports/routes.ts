import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import { apiRoutes, resourceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import { Execution } from '../../operations/executions/schemas.js';
import {
  Export,
  ExportBody,
  ExportPatch,
  ExportRun,
  FailedRow,
  RunQuery,
  RunParams,
  DownloadLinkQuery,
  DownloadLink,
  DownloadQuery,
} from './schemas.js';
import type { ExportsService } from './service.js';

export const exportRoutes: FastifyPluginAsyncTypebox<{ service: ExportsService }> = async (app, { service }) => {
  const route = apiRoutes(app, ['exports']);
  resourceRoutes(route, service, {
    path: '/exports',
    noun: 'Export',
    capabilities: { read: 'export:read', write: 'export:write' },
    schemas: { item: Export, create: ExportBody, update: ExportPatch },
    summaries: {
      list: 'Exports the caller may read (export:read)',
      create:
        'Create an export: a source dataset or warehouse query, a destination, a format and a mode (export:write)',
      get: 'One export; secret fields of its destination are never shown (export:read)',
      update: 'Change an export; a change of what is read starts its diff and cursor again (export:write)',
      remove: 'Delete an export with its runs, snapshot and failed rows (export:write)',
    },
  });
  route.post(
    '/exports/:id/run',
    'export:run',
    {
      operationId: 'runExport',
      summary:
        'Run the export now: an execution of kind export; full_resync sends every row whatever the snapshot and cursor say; 409 while one is queued or running (export:run)',
      params: IdParams,
      querystring: RunQuery,
      response: { 201: Execution },
    },
    (request, principal, context) => service.run(principal, request.params.id, request.query, context),
  );
  route.get(
    '/exports/:id/runs',
    'export:read',
    {
      operationId: 'listExportRuns',
      summary: 'The latest runs of an export with their row counts and files, newest first (export:read)',
      params: IdParams,
      response: { 200: Items(ExportRun) },
    },
    async (request, principal) => ({ items: await service.runs(principal, request.params.id) }),
  );
  route.post(
    '/exports/:id/runs/:run/download-link',
    'export:read',
    {
      operationId: 'createExportDownloadLink',
      summary:
        "A signed, expiring link to a file of a run of a file export, for this export's project only (export:read)",
      params: RunParams,
      querystring: DownloadLinkQuery,
      response: { 201: DownloadLink },
    },
    (request, principal) => service.downloadLink(principal, request.params.id, request.params.run, request.query),
  );
  app.get('/exports/:id/runs/:run/download', {
    config: { capability: 'export:read' },
    schema: {
      operationId: 'downloadExportFile',
      tags: ['exports'],
      summary:
        'A file of a run, by a link from download-link: its signature and expiry are checked, and the caller must still be able to read the export (export:read)',
      params: RunParams,
      querystring: DownloadQuery,
      response: { 200: Type.String({ description: 'The file (CSV, NDJSON, gzip)' }) },
    },
    handler: async (request, reply) => {
      const file = await service.download(principalOf(request), request.params.id, request.params.run, request.query);
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.name.replace(/["\\\r\n]/g, '_')}"`)
        .header('content-length', String(file.size))
        .send(file.stream as never);
    },
  });
  route.get(
    '/exports/:id/failed-rows',
    'export:read',
    {
      operationId: 'listExportFailedRows',
      summary: 'Rows that failed with their reason; the next run tries them again (export:read)',
      params: IdParams,
      response: { 200: Items(FailedRow) },
    },
    async (request, principal) => ({ items: await service.failedRows(principal, request.params.id) }),
  );
};
