import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiRoutes, resourceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import { Execution } from '../../operations/executions/schemas.js';
import { noFile, payloadTooLarge, unsupportedMedia } from '../errors.js';
import {
  FileIngestion,
  FileIngestionBody,
  FileIngestionPatch,
  FileParams,
  FileRecord,
  FilesQuery,
  RunQuery,
  UploadQuery,
} from './schemas.js';
import type { FileIngestionsService } from './service.js';

export const fileIngestionRoutes: FastifyPluginAsyncTypebox<{
  service: FileIngestionsService;
  uploadMaxBytes: number;
}> = async (app, { service, uploadMaxBytes }) => {
  // Multipart only here: one file per request, streamed, at most the upload limit.
  await app.register(multipart, { limits: { files: 1, fileSize: uploadMaxBytes, fields: 10, parts: 20 } });
  const route = apiRoutes(app, ['ingestion']);
  resourceRoutes(route, service, {
    path: '/file-ingestions',
    noun: 'FileIngestion',
    capabilities: { read: 'ingestion:read', write: 'ingestion:write' },
    schemas: { item: FileIngestion, create: FileIngestionBody, update: FileIngestionPatch },
    summaries: {
      list: 'File ingestions the caller may read (ingestion:read)',
      create:
        'Create a file ingestion: a source (upload, folder, S3 prefix or SFTP directory), a format, a destination table (ingestion:write)',
      get: 'One file ingestion (ingestion:read)',
      update: 'Change a file ingestion; loads in flight keep what they started with (ingestion:write)',
      remove: 'Delete a file ingestion, its history and its uploaded files (ingestion:write)',
    },
  });
  route.post(
    '/file-ingestions/:id/files',
    'ingestion:run',
    {
      operationId: 'uploadIngestionFile',
      summary:
        'Upload one file (multipart/form-data, field "file"), streamed to disk, and start its load; a file of the same name and checksum already loaded is recorded as skipped_duplicate unless force (ingestion:run)',
      consumes: ['multipart/form-data'],
      params: IdParams,
      querystring: UploadQuery,
      response: { 201: FileRecord },
    },
    (request, principal, context) =>
      service.upload(
        principal,
        request.params.id,
        async () => {
          if (!request.isMultipart()) throw unsupportedMedia();
          let part;
          try {
            part = await request.file();
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
              throw payloadTooLarge(uploadMaxBytes, 'The file');
            throw error;
          }
          if (!part) throw noFile();
          return { filename: part.filename, stream: part.file, truncated: () => part.file.truncated };
        },
        request.query.force ?? false,
        context,
      ),
  );
  route.get(
    '/file-ingestions/:id/files',
    'ingestion:read',
    {
      operationId: 'listIngestionFiles',
      summary:
        'Load history: one row per file (size, checksum, rows parsed and loaded, errors, the first with its line and column, status), newest first (ingestion:read)',
      params: IdParams,
      querystring: FilesQuery,
      response: { 200: Items(FileRecord) },
    },
    (request, principal) => service.files(principal, request.params.id, request.query),
  );
  route.get(
    '/file-ingestions/:id/files/:file_id',
    'ingestion:read',
    {
      operationId: 'getIngestionFile',
      summary: 'One row of the load history (ingestion:read)',
      params: FileParams,
      response: { 200: FileRecord },
    },
    (request, principal) => service.file(principal, request.params.id, request.params.file_id),
  );
  route.post(
    '/file-ingestions/:id/files/:file_id/reload',
    'ingestion:run',
    {
      operationId: 'reloadIngestionFile',
      summary:
        'Load a kept file again, even though it was loaded: a new history row and a run (409 when the file is no longer kept) (ingestion:run)',
      params: FileParams,
      response: { 201: FileRecord },
    },
    (request, principal, context) => service.reload(principal, request.params.id, request.params.file_id, context),
  );
  route.post(
    '/file-ingestions/:id/run',
    'ingestion:run',
    {
      operationId: 'runFileIngestion',
      summary:
        'Look for new files in the folder, S3 or SFTP source now and load them: an execution of kind file_ingestion (ingestion:run)',
      params: IdParams,
      querystring: RunQuery,
      response: { 201: Execution },
    },
    (request, principal, context) => service.run(principal, request.params.id, request.query.force ?? false, context),
  );
};
