/** File ingestions wired: service, routes, the run handler, the scheduled looks at folders, metrics. */
import path from 'node:path';
import type { ConnectorHandle, Log } from '@svc/engine';
import client from 'prom-client';
import type { Principal } from '../../../platform/authn.js';
import type { ProjectAccess } from '../../../platform/authz.js';
import type { JobQueue } from '../../../platform/jobs.js';
import type { Platform } from '../../../platform/runtime.js';
import type { SecretBox } from '../../../platform/secrets.js';
import { egressPolicyFrom } from '../../../platform/egress.js';
import { repeatEvery } from '../../../platform/periodic.js';
import type { AuditService } from '../../audit/service.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import { createFileIngestionHandler, type IngestMetrics } from './file-ingestion.job.js';
import { createFileIngestionsRepository } from './repository.js';
import { fileIngestionRoutes } from './routes.js';
import { createFileIngestionsService, type ConnectorDescription } from './service.js';
import { createFileStorage } from './storage.js';
import type { LineageService } from '../../governance/lineage/service.js';

export interface IngestionRunDeps extends ProjectAccess {
  audit: AuditService;
  executions: ExecutionsService;
  box: SecretBox;
  recorder: RunRecorder;
  queue: JobQueue;
  /** Where runs report what they read and wrote. */
  lineage: Pick<LineageService, 'recordRun'>;
  connectors: {
    describe(principal: Principal, id: string): Promise<ConnectorDescription>;
    openForRun(id: string, log: Log): Promise<ConnectorHandle>;
    /** A connector's kind, project and decrypted configuration (an SFTP source logs in with it). */
    configForRun(id: string): Promise<{ kind: string; project_id: string; config: Record<string, unknown> }>;
  };
}

/** Items and bytes that move through inboxes, e-mail feeds and file ingestions (`source`: inbox, file). */
export function createIngestMetrics(platform: Platform): IngestMetrics {
  const registers = [platform.metrics.registry];
  return {
    items: new client.Counter({
      name: 'svc_ingest_items_total',
      help: 'Items (files, inbox requests) by source and outcome: received, loaded, rejected, skipped (duplicates).',
      labelNames: ['source', 'outcome'] as const,
      registers,
    }),
    bytes: new client.Counter({
      name: 'svc_ingest_bytes_total',
      help: 'Bytes of items by source: received (taken in by the API) and loaded (read by a load that succeeded).',
      labelNames: ['source', 'direction'] as const,
      registers,
    }),
    rows: new client.Counter({
      name: 'svc_ingest_rows_loaded_total',
      help: 'Rows loaded into destinations by inboxes and file ingestions, by source.',
      labelNames: ['source'] as const,
      registers,
    }),
  };
}

export function createFileIngestions(platform: Platform, deps: IngestionRunDeps, metrics: IngestMetrics) {
  const db = platform.framework.db;
  const { config } = platform;
  const storage = createFileStorage(path.resolve(config.files.root ?? path.join(config.dataDir, 'files')));
  const repository = createFileIngestionsRepository();
  const service = createFileIngestionsService({
    ...deps,
    db,
    repository,
    storage,
    uploadMaxBytes: config.files.uploadMaxBytes,
    onReceived: (bytes) => {
      metrics.items.inc({ source: 'file', outcome: 'received' });
      metrics.bytes.inc({ source: 'file', direction: 'received' }, bytes);
    },
  });
  const logger = platform.logger.child({ component: 'file-ingestions' });
  return {
    service,
    /** Where uploaded and fetched files are kept (retention prunes the copies). */
    storage,
    jobHandlers: {
      file_ingestion: createFileIngestionHandler({
        db,
        repository,
        storage,
        recorder: deps.recorder,
        queue: deps.queue,
        openConnector: deps.connectors.openForRun,
        connectorConfig: deps.connectors.configForRun,
        archiveLimits: {
          maxBytes: config.files.archiveMaxBytes,
          maxMembers: config.files.archiveMaxMembers,
          maxRatio: config.files.archiveMaxRatio,
        },
        metrics,
        box: deps.box,
        egress: egressPolicyFrom(config),
        lineage: deps.lineage,
      }),
    },
    /** Starts the looks at folders that are due, every few seconds, from a worker process. */
    startPolling(intervalMs = 5000) {
      return repeatEvery(intervalMs, () => service.startDue(), logger, 'polling folders failed');
    },
    routes: fileIngestionRoutes,
    routeOptions: { service, uploadMaxBytes: config.files.uploadMaxBytes },
  };
}
