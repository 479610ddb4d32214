/**
 * Forwards the audit log to each destination, on the elected leader: at least once, from the
 * destination's persisted cursor (the id of the last event delivered), in batches, each batch one
 * transaction that holds the destination's row (a second leader skips it) and moves the cursor only
 * after the batch was accepted (HTTP 2xx, or handed to the syslog connection). A failed attempt is
 * retried with exponential backoff; a destination more than SVC_AUDIT_FORWARD_MAX_BACKLOG events
 * behind passes over the oldest, counts them and audits that it did.
 */
import { hostname } from 'node:os';
import type { EgressPolicy } from '@svc/engine';
import type { Logger } from 'pino';
import client from 'prom-client';
import type { Db } from '../../../platform/db/index.js';
import { describeFailure, postJson } from '../../../platform/outbound-http.js';
import type { AuditService } from '../service.js';
import type { AuditForwarderRow, AuditForwardersRepository } from './repository.js';
import {
  asForwarded,
  formatRfc5424,
  openSyslog,
  type Facility,
  type ForwardedEvent,
  type SyslogConnection,
} from './syslog.js';

const MAX_BACKOFF_SECONDS = 300;

export type Unseal = (row: AuditForwarderRow) => Record<string, unknown>;

export function createAuditDelivery(deps: {
  db: Db;
  repository: AuditForwardersRepository;
  audit: AuditService;
  egress: EgressPolicy;
  unseal: Unseal;
  logger: Logger;
  registry: client.Registry;
  batchSize: number;
  maxBacklog: number;
  timeoutMs: number;
}) {
  const { db, repository, logger } = deps;
  const forwarded = new client.Counter({
    name: 'svc_audit_forwarded_total',
    help: 'Audit events delivered to forwarding destinations, by destination type.',
    labelNames: ['type'] as const,
    registers: [deps.registry],
  });
  const failures = new client.Counter({
    name: 'svc_audit_forward_failures_total',
    help: 'Failed delivery attempts of audit event batches (each is retried), by destination type.',
    labelNames: ['type'] as const,
    registers: [deps.registry],
  });
  const skipped = new client.Counter({
    name: 'svc_audit_forward_skipped_total',
    help: 'Audit events passed over because a destination backlog overflowed (each overflow is audited).',
    registers: [deps.registry],
  });

  new client.Gauge({
    name: 'svc_audit_forward_backlog',
    help: 'Audit events waiting for each forwarding destination (counted up to the backlog limit + 1).',
    labelNames: ['destination'] as const,
    registers: [deps.registry],
    async collect() {
      this.reset();
      const destinations = await repository.list(db).catch(() => []);
      for (const destination of destinations)
        this.set(
          { destination: destination.name },
          await repository.backlog(db, destination.cursor, deps.maxBacklog + 1).catch(() => 0),
        );
    },
  });

  // Open syslog connections, per destination, kept while its settings stay the same.
  const connections = new Map<string, { version: number; connection: SyslogConnection }>();
  const dropConnection = async (id: string) => {
    const held = connections.get(id);
    connections.delete(id);
    await held?.connection.close().catch(() => undefined);
  };

  const syslogOptions = (settings: Record<string, unknown>) => ({
    facility: (settings['facility'] as Facility | undefined) ?? 'local0',
    hostname: (settings['hostname'] as string | undefined) ?? hostname(),
    appName: (settings['app_name'] as string | undefined) ?? 'svc',
  });

  /** Delivers events to one destination; throws with the reason when it was not accepted. */
  const send = async (row: AuditForwarderRow, events: ForwardedEvent[]): Promise<string> => {
    const settings = deps.unseal(row);
    if (row.type === 'http') {
      const headers: Record<string, string> = { ...(settings['headers'] as Record<string, string> | undefined) };
      if (settings['token']) headers['x-svc-verification-token'] = String(settings['token']);
      const answer = await postJson(
        deps.egress,
        String(settings['url']),
        JSON.stringify({ events }),
        headers,
        deps.timeoutMs,
      );
      if (!answer.ok) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
      return `HTTP ${answer.status}`;
    }
    const version = row.updated_at.getTime();
    let held = connections.get(row.id);
    if (held && (held.version !== version || held.connection.closed)) {
      await dropConnection(row.id);
      held = undefined;
    }
    if (!held) {
      const connection = await openSyslog(
        {
          host: String(settings['host']),
          port: Number(settings['port']),
          transport: settings['transport'] as 'udp' | 'tcp' | 'tls',
          framing: settings['framing'] as 'octet-counting' | 'lf',
          ca: settings['ca'] as string | undefined,
          insecure: settings['insecure'] === true,
          cert: settings['client_cert'] as string | undefined,
          key: settings['client_key'] as string | undefined,
        },
        deps.egress,
        deps.timeoutMs,
      );
      held = { version, connection };
      connections.set(row.id, held);
    }
    const options = syslogOptions(settings);
    try {
      await held.connection.send(events.map((event) => formatRfc5424(event, options)));
    } catch (error) {
      await dropConnection(row.id);
      throw error;
    }
    return `${events.length} message(s) written`;
  };

  /** One batch for one destination, in its own transaction; false when there was nothing to do or it failed. */
  /**
   * `checkBacklog`: the first batch of a pass looks for an overflow (a scan of up to the backlog
   * limit); the following ones only send what they find.
   */
  const deliverBatch = async (destinationId: string, checkBacklog: boolean): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('audit_forwarders')
        .selectAll()
        .where('id', '=', destinationId)
        .where('enabled', '=', true)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!row) return false;
      let cursor = row.cursor;
      const overflow = checkBacklog ? await repository.overflow(trx, cursor, deps.maxBacklog) : undefined;
      if (overflow) {
        await trx
          .updateTable('audit_forwarders')
          .set({
            cursor: overflow.upTo,
            skipped: plus(row.skipped, overflow.count),
          })
          .where('id', '=', row.id)
          .execute();
        await deps.audit.record(
          {},
          {
            kind: 'audit_forwarding_overflow',
            target: { type: 'audit_forwarder', id: row.id },
            details: { name: row.name, skipped: overflow.count, after_id: cursor, up_to_id: overflow.upTo },
          },
          trx,
        );
        skipped.inc(overflow.count);
        logger.warn(
          { destination: row.name, skipped: overflow.count },
          'audit forwarding backlog overflowed: oldest events passed over',
        );
        cursor = overflow.upTo;
      }
      const events = await repository.eventsAfter(trx, cursor, deps.batchSize);
      if (events.length === 0) return overflow !== undefined;
      const last = String(events[events.length - 1]!.id);
      const wanted = row.actions.length ? events.filter((e) => row.actions.includes(e.kind)) : events;
      try {
        if (wanted.length) await send(row, wanted.map(asForwarded));
      } catch (error) {
        const reason = describeFailure(error);
        const backoff = Math.min(MAX_BACKOFF_SECONDS, 2 ** Math.min(row.attempts, 10));
        failures.inc({ type: row.type });
        logger.warn({ destination: row.name, attempts: row.attempts + 1, reason }, 'audit forwarding failed');
        await trx
          .updateTable('audit_forwarders')
          .set({
            attempts: row.attempts + 1,
            next_attempt_at: new Date(Date.now() + backoff * 1000),
            last_error: reason,
            last_error_at: new Date(),
            failed: plus(row.failed, wanted.length),
          })
          .where('id', '=', row.id)
          .execute();
        return false;
      }
      forwarded.inc({ type: row.type }, wanted.length);
      await trx
        .updateTable('audit_forwarders')
        .set({
          cursor: last,
          attempts: 0,
          sent: plus(row.sent, wanted.length),
          ...(wanted.length ? { last_delivered_at: new Date(), last_error: null } : {}),
        })
        .where('id', '=', row.id)
        .execute();
      return events.length === deps.batchSize;
    });

  let running: Promise<void> | undefined;
  // Set by close(): the pass in progress ends after its current batch.
  let stopping = false;
  /**
   * Every due destination, a batch each in turn, until none has more: a destination far behind
   * catches up within one pass without holding the others back.
   */
  const pass = async () => {
    const due = await db.transaction().execute((trx) => repository.lockDue(trx));
    let pending = due.map((d) => d.id);
    let first = true;
    while (pending.length && !stopping) {
      const next: string[] = [];
      for (const id of pending) {
        const more = await deliverBatch(id, first).catch((error: Error) => {
          logger.warn({ err: error, destination_id: id }, 'audit forwarding pass failed');
          return false;
        });
        if (more) next.push(id);
      }
      pending = next;
      first = false;
    }
    for (const id of connections.keys()) if (!due.some((d) => d.id === id)) await dropConnection(id);
  };

  return {
    /** One pass over every due destination (one at a time in this process). */
    run(): Promise<void> {
      if (stopping) return Promise.resolve();
      running ??= pass().finally(() => {
        running = undefined;
      });
      return running;
    },
    /** Sends one test event now, outside the cursor. */
    async test(row: AuditForwarderRow): Promise<{ ok: boolean; detail: string }> {
      const event: ForwardedEvent = {
        id: '0',
        occurred_at: new Date().toISOString(),
        kind: 'audit_forwarding_test',
        actor_user_id: null,
        actor_token_id: null,
        client_address: null,
        user_agent: null,
        request_id: null,
        target_type: 'audit_forwarder',
        target_id: row.id,
        details: { name: row.name },
      };
      try {
        return { ok: true, detail: await send(row, [event]) };
      } catch (error) {
        return { ok: false, detail: describeFailure(error) };
      }
    },
    /** Closes the open syslog connections (after the pass in progress). */
    async close() {
      stopping = true;
      await running?.catch(() => undefined);
      for (const id of [...connections.keys()]) await dropConnection(id);
    },
  };
}

/** A bigint counter column plus n (kept as the string the driver returns). */
function plus(current: string, n: number): string {
  return String(BigInt(current) + BigInt(n));
}
