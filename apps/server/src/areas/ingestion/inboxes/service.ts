/**
 * Inboxes: HTTP endpoints that receive data for a project. Managed with the API (ingestion:*); the
 * receive route is public, guarded by the inbox's own credential and its own rate limit. Every
 * request is recorded before it is answered: accepted ones with their body (202 only once that row
 * is committed), rejected ones with the reason. The worker loads accepted requests in batches
 * (inbox-load.job.ts); a request can be replayed while its body is kept.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Principal } from '../../../platform/authn.js';
import type { ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import type { Db } from '../../../platform/db/index.js';
import {
  AppError,
  conflict,
  notFound,
  tooManyRequests,
  unauthenticated,
  validationFailed,
} from '../../../platform/errors/index.js';
import { WindowCounter } from '../../../platform/rate-limit.js';
import { SYSTEM_CONTEXT, type RequestContext } from '../../../platform/request-context.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { AuditService } from '../../audit/service.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import { payloadTooLarge } from '../errors.js';
import type { IngestMetrics } from '../file-ingestions/file-ingestion.job.js';
import type { ConnectorDescription } from '../file-ingestions/service.js';
import { destinationProblems, ingestionGuard, runStarter } from '../runs.js';
import { jsonPathValue, kindOf, recordsOf } from './bodies.js';
import { checkBeforeBody, checkSignature, newSecret, tokenHash } from './credentials.js';
import { groupCommit } from './group-commit.js';
import type {
  DedupeSpec,
  InboxAuthConfig,
  InboxDestinationSpec,
  InboxesRepository,
  InboxRow,
  NewRequest,
} from './repository.js';
import { authorship } from '../../../platform/presenters.js';

export const INBOX = 'Inbox';
const CACHE_MS = 2000;

export interface InboxInput {
  project_id: string;
  name: string;
  auth: { kind: 'bearer' | 'basic' | 'hmac'; password?: string; secret?: string } & InboxAuthConfig;
  content_types?: string[];
  max_body_bytes?: number;
  dedupe?: DedupeSpec | null;
  destination: InboxDestinationSpec;
  rate_limit_per_minute?: number;
  retention_days?: number;
}

export const presentInbox = (row: InboxRow, secret?: string) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  receive_path: `/api/v1/inboxes/${row.id}/receive`,
  auth: { kind: row.auth_kind, ...row.auth },
  content_types: row.content_types,
  max_body_bytes: row.max_body_bytes,
  dedupe: row.dedupe as Record<string, unknown> | null,
  destination: row.destination as unknown as Record<string, unknown>,
  rate_limit_per_minute: row.rate_limit_per_minute,
  retention_days: row.retention_days,
  ...authorship(row),
  ...(secret ? { secret } : {}),
});

const presentRequest = (row: Awaited<ReturnType<InboxesRepository['requests']>>[number]) => ({
  ...row,
  received_at: row.received_at.toISOString(),
  loaded_at: row.loaded_at?.toISOString() ?? null,
});

/** A refused request, recorded with its reason, then answered with `error`. */
class Refusal extends Error {
  constructor(
    readonly error: AppError,
    readonly reason: string,
    readonly size: number,
  ) {
    super(reason);
  }
}

const refuse = (status: number, code: string, reason: string, size = 0) =>
  new Refusal(
    status === 401 ? unauthenticated(`Inbox credential refused: ${reason}`) : new AppError(code, status, reason),
    reason,
    size,
  );

/** Reads a body up to `max` bytes; `undefined` as soon as it is larger (the rest is never read). */
function readLimited(stream: Readable, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > max) {
        cleanup();
        stream.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, total));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

export type InboxesService = ReturnType<typeof createInboxesService>;

export function createInboxesService(
  deps: ProjectAccess & {
    db: Db;
    repository: InboxesRepository;
    audit: AuditService;
    executions: ExecutionsService;
    box: SecretBox;
    shared: SharedState;
    logger: Logger;
    metrics: IngestMetrics;
    connectors: { describe(principal: Principal, id: string): Promise<ConnectorDescription> };
  },
) {
  const { db, repository, box, metrics } = deps;
  const guard = ingestionGuard(deps, INBOX, (id) => repository.find(db, id));
  const writes = auditedWrites<InboxRow>(deps, {
    kind: 'inbox',
    label: INBOX,
    nameTaken: (name) => conflict(`An inbox named "${name}" already exists in this project`),
  });
  /** A load of the inbox's pending requests. */
  const startLoad = runStarter<InboxRow, Record<string, never>>(deps.executions, 'inbox', (inbox) => ({
    inbox_id: inbox.id,
    inbox_name: inbox.name,
  }));
  const limiter = new WindowCounter(deps.shared, 60_000, deps.logger);

  // The receive route reads its inbox on every request: kept for CACHE_MS. A change or deletion made
  // through this process drops it at once; one made through another API process is seen within
  // CACHE_MS (the bound docs/ingestion.md states). A request for a deleted inbox in that gap is
  // answered 5xx, never 202: its row cannot be inserted (foreign key).
  const cache = new Map<string, { row: InboxRow | undefined; at: number }>();
  const cachedInbox = async (id: string) => {
    const hit = cache.get(id);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.row;
    const row = await repository.find(db, id);
    cache.set(id, { row, at: Date.now() });
    if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
    return row;
  };

  /** The stored secret of an auth spec, and the one to show once (a generated token or HMAC secret). */
  const secretOf = (auth: InboxInput['auth']): { stored: string; shown?: string } => {
    if (auth.kind === 'bearer') {
      const token = newSecret('svc_inbox_');
      return { stored: tokenHash(token), shown: token };
    }
    if (auth.kind === 'basic') return { stored: box.encrypt(auth.password!) };
    const secret = auth.secret ?? newSecret('');
    return { stored: box.encrypt(secret), shown: auth.secret ? undefined : secret };
  };
  const publicAuth = (auth: InboxInput['auth']): InboxAuthConfig => {
    const { kind: _kind, password: _password, secret: _secret, ...rest } = auth;
    return rest;
  };

  const problemsOf = async (principal: Principal, projectId: string, input: Omit<InboxInput, 'project_id'>) => {
    // Append and upsert, the modes an inbox loads in, are written by every writable connector.
    const problems = await destinationProblems(deps.connectors, principal, projectId, input.destination, {
      checkMode: false,
    });
    if (input.dedupe && !input.dedupe.header === !input.dedupe.json_path)
      problems.push({ path: 'dedupe', message: 'needs exactly one of header and json_path' });
    return problems;
  };

  // Accepted requests without a dedupe key share inserts and commits (group-commit.ts).
  const grouped = groupCommit(
    async (rows: NewRequest[]) => (await repository.insertRequests(db, rows)).map((r) => r.id),
    { maxRows: 500, inFlight: 2 },
  );
  const insertGrouped = grouped.insert;

  /** Records a request (in `trx` when given) and answers its id. */
  const record = (
    trx: Db,
    inbox: InboxRow,
    fields: Omit<Parameters<InboxesRepository['insertRequest']>[1], 'inbox_id' | 'project_id'>,
  ) => repository.insertRequest(trx, { inbox_id: inbox.id, project_id: inbox.project_id, ...fields });

  return {
    async create(principal: Principal, input: InboxInput, context: RequestContext) {
      await deps.authorize(principal, 'ingestion:write', input.project_id);
      const problems = await problemsOf(principal, input.project_id, input);
      if (problems.length) throw validationFailed(problems);
      const secret = secretOf(input.auth);
      const row = await writes.create(context, input.name, (trx) =>
        repository.insert(trx, {
          project_id: input.project_id,
          name: input.name,
          auth_kind: input.auth.kind,
          auth: publicAuth(input.auth),
          secret: secret.stored,
          content_types: input.content_types ?? ['application/json'],
          max_body_bytes: input.max_body_bytes ?? 1024 * 1024,
          dedupe: input.dedupe ?? null,
          destination: input.destination,
          rate_limit_per_minute: input.rate_limit_per_minute ?? 6000,
          retention_days: input.retention_days ?? 7,
          created_by: principal.userId,
        }),
      );
      return presentInbox(row, secret.shown);
    },

    ...guard.readers(
      'ingestion:read',
      (projectIds) => repository.list(db, projectIds),
      (row) => presentInbox(row),
    ),

    async update(
      principal: Principal,
      id: string,
      patch: Partial<Omit<InboxInput, 'project_id'>>,
      context: RequestContext,
    ) {
      const current = await guard.find(principal, id, 'ingestion:write');
      const merged = { name: current.name, destination: current.destination, dedupe: current.dedupe, ...patch };
      const problems = await problemsOf(principal, current.project_id, merged as InboxInput);
      if (problems.length) throw validationFailed(problems);
      const { auth, ...rest } = patch;
      const secret = auth ? secretOf(auth) : undefined;
      const row = await writes.update(context, id, merged.name, patch, (trx) =>
        repository.update(trx, id, {
          ...rest,
          ...(auth ? { auth_kind: auth.kind, auth: publicAuth(auth), secret: secret!.stored } : {}),
        }),
      );
      cache.delete(id);
      return presentInbox(row, secret?.shown);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'ingestion:write');
      await writes.remove(context, id, { name: row.name }, (trx) => repository.remove(trx, id));
      cache.delete(id);
    },

    async requests(principal: Principal, id: string, query: { status?: 'accepted' | 'rejected'; limit?: number }) {
      await guard.find(principal, id, 'ingestion:read');
      return { items: (await repository.requests(db, id, query)).map(presentRequest) };
    },

    /** Records a kept request again as a new accepted one (no dedupe check), for the worker to load. */
    async replay(principal: Principal, id: string, requestId: string) {
      const inbox = await guard.find(principal, id, 'ingestion:run');
      const original = await repository.findRequest(db, id, requestId);
      if (!original) throw notFound('Request');
      if (original.status !== 'accepted' || !original.body)
        throw conflict('Only an accepted request whose body is still kept can be replayed');
      const { id: newId } = await record(db, inbox, {
        status: 'accepted',
        reason: null,
        content_type: original.content_type,
        size: original.size,
        dedupe_key: null,
        body: original.body,
        load_status: 'pending',
        error: null,
        replay_of: original.id,
      });
      const [row] = (await repository.requests(db, id, { limit: 1000 })).filter((r) => r.id === newId);
      return presentRequest(row!);
    },

    /**
     * The public receive route: credential, rate limit, content type and size, then the body is read
     * (never past max_body_bytes), checked and recorded; answered 202 once it is committed.
     */
    async receive(id: string, headers: IncomingHttpHeaders, body: Readable) {
      const inbox = await cachedInbox(id);
      if (!inbox) throw notFound(INBOX);
      const hit = limiter.hit(`rl:inbox:${inbox.id}`, inbox.rate_limit_per_minute);
      const count = hit instanceof Promise ? await hit.catch(() => undefined) : hit;
      if (count && count.count > inbox.rate_limit_per_minute)
        throw tooManyRequests(Math.max(1, Math.ceil(count.resetMs / 1000)));
      const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const declared = Number(headers['content-length'] ?? NaN);
      const secret = () => (inbox.auth_kind === 'bearer' ? inbox.secret : box.decrypt(inbox.secret));
      try {
        const kind = kindOf(contentType);
        const accepted = inbox.content_types.map((c) => kindOf(c));
        if (!kind || !accepted.includes(kind))
          throw refuse(415, 'unsupported_media_type', `content type "${contentType}" is not accepted by this inbox`);
        if (declared > inbox.max_body_bytes)
          throw new Refusal(payloadTooLarge(inbox.max_body_bytes, 'The body'), 'body too large', declared);
        const denied = checkBeforeBody(inbox.auth_kind, inbox.auth, secret, headers);
        if (denied) throw refuse(401, 'unauthenticated', denied);
        const data = await readLimited(body, inbox.max_body_bytes);
        if (!data)
          throw new Refusal(
            payloadTooLarge(inbox.max_body_bytes, 'The body'),
            'body too large',
            inbox.max_body_bytes + 1,
          );
        if (inbox.auth_kind === 'hmac') {
          const bad = checkSignature(inbox.auth, secret(), headers, data);
          if (bad) throw refuse(401, 'unauthenticated', bad, data.length);
        }
        try {
          recordsOf(kind, data);
        } catch (error) {
          throw refuse(400, 'bad_request', `the body is not valid ${kind}: ${(error as Error).message}`, data.length);
        }
        const dedupe = inbox.dedupe;
        const headerKey = dedupe?.header ? headers[dedupe.header.toLowerCase()] : undefined;
        const key = dedupe?.header
          ? Array.isArray(headerKey)
            ? headerKey[0]
            : headerKey
          : dedupe?.json_path && kind === 'json'
            ? jsonPathValue(data, dedupe.json_path)
            : undefined;
        if (!key) {
          const id = await insertGrouped({
            inbox_id: inbox.id,
            project_id: inbox.project_id,
            status: 'accepted',
            reason: null,
            content_type: contentType,
            size: data.length,
            dedupe_key: null,
            body: data,
            load_status: 'pending',
            error: null,
            replay_of: null,
          });
          metrics.items.inc({ source: 'inbox', outcome: 'received' });
          metrics.bytes.inc({ source: 'inbox', direction: 'received' }, data.length);
          return { id, status: 'accepted' as const, duplicate: false };
        }
        const saved = await db.transaction().execute(async (trx) => {
          const duplicate = key
            ? await repository.seenKey(trx, inbox.id, key, dedupe?.window_seconds ?? 86_400)
            : false;
          const row = await record(trx, inbox, {
            status: 'accepted',
            reason: null,
            content_type: contentType,
            size: data.length,
            dedupe_key: key,
            dedupe_hit: duplicate,
            body: duplicate ? null : data,
            load_status: duplicate ? 'skipped' : 'pending',
            error: null,
            replay_of: null,
          });
          return { id: row.id, duplicate };
        });
        metrics.items.inc({ source: 'inbox', outcome: saved.duplicate ? 'skipped' : 'received' });
        metrics.bytes.inc({ source: 'inbox', direction: 'received' }, data.length);
        return { id: saved.id, status: 'accepted' as const, duplicate: saved.duplicate };
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        metrics.items.inc({ source: 'inbox', outcome: 'rejected' });
        await record(db, inbox, {
          status: 'rejected',
          reason: error.reason,
          content_type: contentType || null,
          size: Number.isFinite(error.size) ? error.size : 0,
          dedupe_key: null,
          body: null,
          load_status: null,
          error: null,
          replay_of: null,
        }).catch((e: Error) => deps.logger.warn({ err: { message: e.message } }, 'recording a refused request failed'));
        throw error.error;
      }
    },

    /** Starts a load of every inbox with pending requests that has none queued or running. */
    async startPendingLoads(limit = 50) {
      let started = 0;
      for (const inboxId of await repository.inboxesWithPending(db, limit)) {
        started += await db.transaction().execute(async (trx) => {
          const inbox = await repository.lockInbox(trx, inboxId);
          if (!inbox) return 0;
          if (inbox.load_execution_id) {
            const running = await deps.executions.find(inbox.load_execution_id);
            if (running && ['queued', 'running'].includes(running.status)) return 0;
          }
          const execution = await startLoad(trx, inbox, {}, null, SYSTEM_CONTEXT);
          await repository.setLoadExecution(trx, inbox.id, execution.id);
          return 1;
        });
      }
      return started;
    },
    expireBodies: () => repository.expireBodies(db),
  };
}
