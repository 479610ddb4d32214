/**
 * A run of an e-mail feed: reads the mailbox by UID above the last one handled (all over again when
 * UIDVALIDITY changed), and for each new message that passes the filters loads its matching
 * attachments (or its own fields) into the destination, records its history row and moves the
 * feed's position past it in one transaction, then applies the post action. Each write's run id is
 * the message's (feed, UIDVALIDITY, UID, attempt), so a run retried after a crash or a dropped
 * connection does not load a message twice; a message loaded under an earlier UIDVALIDITY (same
 * Message-ID) is recorded as skipped. A mailbox that cannot be reached marks the feed degraded
 * with the reason.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConnectorHandle, EgressPolicy, Log } from '@svc/engine';
import type { Attachment } from 'mailparser';
import picomatch from 'picomatch';
import type { Db } from '../../../platform/db/index.js';
import type { Job, JobHandler, JobQueue } from '../../../platform/jobs.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { LineageService } from '../../governance/lineage/service.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import { settleFailure, watchRun } from '../../operations/executions/run-control.js';
import { convertToNdjson, type ConvertedFormat } from '../file-ingestions/converters.js';
import type { IngestMetrics } from '../file-ingestions/file-ingestion.job.js';
import { loadFile } from '../file-ingestions/loader.js';
import { openSession, reasonOf, type FetchedMessage, type ImapSession } from './imap.js';
import type { AttachmentOutcome, EmailFeedRow, EmailFeedsRepository, MessageStatus } from './repository.js';

export interface EmailFeedRunParams {
  feed_id: string;
  feed_name: string;
  /** Read from the first message again (loaded ones are still skipped). */
  from_start?: boolean;
  /** Load these UIDs (of the current UIDVALIDITY) again, even though they were loaded. */
  reload_uids?: string[];
}

type Format = 'csv' | 'json' | 'ndjson' | 'xlsx' | 'parquet';

/** An attachment's format: the feed's, else from its name, else from its MIME type. */
export function formatOf(filename: string, contentType: string, declared?: Format): Format | undefined {
  if (declared) return declared;
  const name = filename.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  if (name.endsWith('.json')) return 'json';
  if (name.endsWith('.xlsx')) return 'xlsx';
  if (name.endsWith('.parquet')) return 'parquet';
  const type = contentType.toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (type === 'application/x-ndjson' || type === 'application/jsonl') return 'ndjson';
  if (type === 'application/json') return 'json';
  if (type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') return 'xlsx';
  if (type === 'application/vnd.apache.parquet' || type === 'application/x-parquet') return 'parquet';
  return undefined;
}

class RunFailed extends Error {
  readonly retryable = false;
}

export function createEmailFeedHandler(deps: {
  db: Db;
  repository: EmailFeedsRepository;
  recorder: RunRecorder;
  queue: JobQueue;
  openConnector: (id: string, log: Log) => Promise<ConnectorHandle>;
  metrics: IngestMetrics;
  box: SecretBox;
  egress: EgressPolicy;
  /** What each run read and wrote, recorded with its success. */
  lineage: Pick<LineageService, 'recordRun'>;
  tempDir?: string;
}): JobHandler<'email_feed'> {
  const { db, repository, recorder, metrics } = deps;

  return async (job: Job<'email_feed'>, leaseSignal: AbortSignal) => {
    const executionId = job.payload.execution_id;
    const execution = await recorder.start(executionId);
    if (!execution) return;
    const params = execution.params as unknown as EmailFeedRunParams;
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, fields).catch(() => undefined);
    const watch = watchRun(recorder, executionId, leaseSignal);
    const work = path.join(deps.tempDir ?? os.tmpdir(), `svc-email-${executionId}`);
    let handle: ConnectorHandle | undefined;
    let session: ImapSession | undefined;
    const totals = { rows_read: 0, rows_written: 0, bytes_read: 0, bytes_written: 0 };
    const counts = { loaded: 0, skipped: 0, failed: 0 };
    let feed: EmailFeedRow | undefined;
    try {
      feed = await repository.find(db, params.feed_id);
      if (!feed) throw new RunFailed('the e-mail feed was deleted');
      await mkdir(work, { recursive: true });
      try {
        session = await openSession(feed, deps.box.decrypt(feed.password_encrypted), deps.egress);
      } catch (error) {
        throw new Unreachable(reasonOf(error));
      }
      const state = await session.open().catch((error: unknown) => {
        throw new Unreachable(reasonOf(error));
      });
      let after = params.from_start ? 0 : Number(feed.last_uid);
      if (feed.uid_validity !== state.uidValidity) {
        if (feed.uid_validity !== null)
          log(
            'warn',
            `UIDVALIDITY changed from ${feed.uid_validity} to ${state.uidValidity}: reading the mailbox from its start`,
          );
        after = 0;
        await repository.update(db, feed.id, { uid_validity: state.uidValidity, last_uid: '0' });
      }
      const reloads = new Set((params.reload_uids ?? []).map(Number));
      const { all, matching } = reloads.size
        ? { all: [] as number[], matching: [...reloads].sort((a, b) => a - b) }
        : await session.newUids(after, feed.filters);
      const highest = all.length ? Math.max(...all) : after;
      const subject = feed.filters.subject_pattern ? new RegExp(feed.filters.subject_pattern, 'i') : undefined;
      log('info', `${all.length} new message(s) above UID ${after}, ${matching.length} passing the filters`);

      for (const uid of matching) {
        if (watch.signal.aborted) throw watch.signal.reason as Error;
        const reload = reloads.has(uid);
        const previous = await repository.findMessage(db, feed.id, state.uidValidity, String(uid));
        if (previous && !reload) {
          counts.skipped += 1;
          await advance(feed.id, uid);
          continue;
        }
        const message = await session.fetch(uid).catch((error: unknown) => {
          throw new Unreachable(reasonOf(error));
        });
        if (!message) {
          await advance(feed.id, uid);
          continue;
        }
        if (subject && !subject.test(message.subject ?? '')) {
          await advance(feed.id, uid);
          continue;
        }
        totals.bytes_read += message.source.length;
        metrics.items.inc({ source: 'email', outcome: 'received' });
        metrics.bytes.inc({ source: 'email', direction: 'received' }, message.source.length);
        const twin =
          !reload && message.messageId
            ? await db
                .selectFrom('email_feed_messages')
                .select(['uid_validity', 'uid'])
                .where('feed_id', '=', feed.id)
                .where('message_id', '=', message.messageId)
                .where('uid_validity', '!=', state.uidValidity)
                .where('status', 'in', ['loaded', 'partially_loaded'])
                .executeTakeFirst()
            : undefined;
        const attempt = (previous?.attempts ?? 0) + 1;
        let outcome: { status: MessageStatus; rows: number; attachments: AttachmentOutcome[]; error: string | null };
        if (twin) {
          outcome = {
            status: 'skipped',
            rows: 0,
            attachments: [],
            error: `loaded already, as UID ${twin.uid} of UIDVALIDITY ${twin.uid_validity}`,
          };
        } else {
          handle ??= await deps.openConnector(feed.destination.connector_id, log);
          outcome = await loadMessage(feed, message, state.uidValidity, attempt, handle);
        }
        await db.transaction().execute(async (trx) => {
          await repository.recordMessage(trx, {
            feed_id: feed!.id,
            project_id: feed!.project_id,
            uid_validity: state.uidValidity,
            uid: String(uid),
            message_id: message.messageId,
            sender: message.from,
            subject: message.subject,
            sent_at: message.date && !Number.isNaN(message.date.getTime()) ? message.date : null,
            attachments: outcome.attachments,
            rows_loaded: String(outcome.rows),
            status: outcome.status,
            error: outcome.error,
            attempts: attempt,
            execution_id: executionId,
          });
          if (!reload) await advance(feed!.id, uid, trx);
        });
        totals.rows_read += outcome.rows;
        totals.rows_written += outcome.rows;
        metrics.rows.inc({ source: 'email' }, outcome.rows);
        if (outcome.status === 'failed') {
          counts.failed += 1;
          metrics.items.inc({ source: 'email', outcome: 'rejected' });
          log('error', `UID ${uid} (${message.subject ?? 'no subject'}): failed: ${outcome.error}`);
          continue;
        }
        if (outcome.status === 'skipped') {
          counts.skipped += 1;
          metrics.items.inc({ source: 'email', outcome: 'skipped' });
          log('info', `UID ${uid}: skipped: ${outcome.error}`);
        } else {
          counts.loaded += 1;
          metrics.items.inc({ source: 'email', outcome: 'loaded' });
          log('info', `UID ${uid} (${message.subject ?? 'no subject'}): ${outcome.status}, ${outcome.rows} row(s)`);
        }
        // The post action on what was loaded; a skipped message is left as it is.
        if (feed.post_action !== 'none' && outcome.status !== 'skipped')
          await session.settle(uid).catch((error: unknown) => {
            log('warn', `UID ${uid}: loaded, but the post action ${feed!.post_action} failed: ${reasonOf(error)}`);
          });
      }
      if (!reloads.size) await advance(feed.id, highest);
      await repository.setStatus(db, feed.id, 'active', null);
      await db.transaction().execute(async (trx) => {
        await deps.queue.holdLease(trx, job);
        // The mailbox in, the destination table out (when anything was loaded).
        if (counts.loaded > 0)
          await deps.lineage.recordRun(trx, {
            runId: executionId,
            projectId: feed!.project_id,
            job: { kind: 'email_feed', itemId: feed!.id },
            inputs: [{ ol: { namespace: `imap://${feed!.host}:${feed!.port}`, name: feed!.mailbox } }],
            outputs: [
              {
                connector_id: feed!.destination.connector_id,
                namespace: feed!.destination.namespace ?? null,
                name: feed!.destination.table,
                rowCount: totals.rows_written,
              },
            ],
          });
        await recorder.succeed(trx, executionId, totals);
      });
      log(
        'info',
        `run finished: ${counts.loaded} message(s) loaded, ${counts.skipped} skipped, ${counts.failed} failed, ${totals.rows_written} rows`,
        totals,
      );
    } catch (error) {
      const reason = watch.signal.aborted ? (watch.signal.reason as Error) : (error as Error);
      if (error instanceof Unreachable && feed) {
        await repository.setStatus(db, feed.id, 'degraded', error.message).catch(() => undefined);
        log('error', `the mailbox cannot be read: ${error.message}`);
      }
      await recorder.progress(executionId, totals).catch(() => undefined);
      await settleFailure(recorder, job, executionId, reason, leaseSignal, log, 'e-mail feed');
    } finally {
      watch.stop();
      await session?.close().catch(() => undefined);
      await handle?.close();
      await rm(work, { recursive: true, force: true }).catch(() => undefined);
    }

    /** Moves the feed's position past `uid` (never back). */
    async function advance(feedId: string, uid: number, trx: Db = db) {
      await trx
        .updateTable('email_feeds')
        .set({ last_uid: String(uid) })
        .where('id', '=', feedId)
        .where('last_uid', '<', String(uid))
        .execute();
    }

    async function loadMessage(
      row: EmailFeedRow,
      message: FetchedMessage,
      uidValidity: string,
      attempt: number,
      connector: ConnectorHandle,
    ) {
      const runBase = `email:${row.id}:${uidValidity}:${message.uid}:${attempt}`;
      // mailparser (with its HTML and charset code) is loaded by the first message a process parses.
      const { simpleParser } = await import('mailparser');
      const parsed = await simpleParser(message.source, { skipHtmlToText: true, skipTextToHtml: true });
      const spec = (format: 'csv' | 'ndjson', delimiter?: string) => ({
        format: { type: format, ...(delimiter ? { delimiter } : {}), compression: 'auto' as const },
        schema_mode: 'infer' as const,
        columns: [],
        on_error: 'abort' as const,
        error_limit: 0,
        destination: row.destination,
      });
      if (row.load.kind === 'message_fields') {
        const file = path.join(work, `${randomUUID()}.ndjson`);
        const recipients = parsed.to ? (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).map((a) => a.text) : [];
        await writeFile(
          file,
          `${JSON.stringify({
            message_id: message.messageId,
            sender: message.from,
            recipients: recipients.join(', ') || null,
            subject: message.subject,
            sent_at: message.date && !Number.isNaN(message.date.getTime()) ? message.date.toISOString() : null,
            text: parsed.text ?? null,
            attachment_count: parsed.attachments.length,
          })}\n`,
        );
        const result = await loadFile(connector, file, 'message.ndjson', spec('ndjson'), {
          runId: runBase,
          signal: watch.signal,
        });
        totals.bytes_written += result.bytesWritten;
        return {
          status: result.status === 'failed' ? ('failed' as const) : ('loaded' as const),
          rows: result.rowsLoaded,
          attachments: [],
          error: result.reason ?? null,
        };
      }
      const load = row.load;
      const glob = picomatch(load.glob ?? '*', { nocase: true, dot: true });
      const types = load.mime_types?.map((t) => t.toLowerCase());
      const attachments: AttachmentOutcome[] = [];
      let rows = 0;
      let index = 0;
      for (const attachment of parsed.attachments as Attachment[]) {
        const filename = attachment.filename ?? `attachment-${index + 1}`;
        const contentType = attachment.contentType ?? 'application/octet-stream';
        const entry: AttachmentOutcome = {
          filename,
          content_type: contentType,
          size: attachment.size ?? attachment.content.length,
          loaded: false,
          rows_loaded: 0,
          error: null,
        };
        attachments.push(entry);
        index += 1;
        if (!glob(filename) || (types && !types.includes(contentType.toLowerCase()))) continue;
        const format = formatOf(filename, contentType, load.format);
        if (!format) {
          entry.error = 'not a format this feed loads (CSV, JSON, NDJSON, .xlsx, Parquet)';
          continue;
        }
        const file = path.join(work, `${randomUUID()}-${filename.replace(/[^\w.-]/g, '_').slice(0, 100)}`);
        try {
          await writeFile(file, attachment.content);
          let loadPath = file;
          let loadName = filename;
          if (format === 'json' || format === 'xlsx' || format === 'parquet') {
            loadPath = `${file}.ndjson`;
            loadName = `${filename}.ndjson`;
            await convertToNdjson(file, format as ConvertedFormat, loadPath);
          }
          const result = await loadFile(
            connector,
            loadPath,
            loadName,
            spec(format === 'csv' ? 'csv' : 'ndjson', load.delimiter),
            { runId: `${runBase}:${index}`, signal: watch.signal },
          );
          totals.bytes_written += result.bytesWritten;
          if (result.status === 'failed') entry.error = result.reason ?? result.firstError?.message ?? 'failed';
          else {
            entry.loaded = true;
            entry.rows_loaded = result.rowsLoaded;
            rows += result.rowsLoaded;
          }
        } catch (error) {
          if (watch.signal.aborted) throw error;
          entry.error = (error as Error).message;
        } finally {
          await rm(file, { force: true });
          await rm(`${file}.ndjson`, { force: true });
        }
      }
      const tried = attachments.filter((a) => a.loaded || a.error);
      const failed = tried.filter((a) => a.error);
      const status: MessageStatus =
        tried.length === 0
          ? 'skipped'
          : failed.length === 0
            ? 'loaded'
            : failed.length === tried.length
              ? 'failed'
              : 'partially_loaded';
      return {
        status,
        rows,
        attachments,
        error:
          tried.length === 0
            ? 'no attachment matched'
            : failed.length
              ? failed.map((a) => `${a.filename}: ${a.error}`).join('; ')
              : null,
      };
    }
  };
}

/** The mailbox could not be reached or read: the feed is degraded. */
class Unreachable extends Error {
  readonly retryable = false;
}
