/**
 * Evaluates every enabled alert rule on the elected leader (a leader task every
 * SVC_ALERT_EVALUATION_MS, and at once when a run ends: the operations area announces finished runs
 * on the shared pub/sub, and the database read of the next tick finds any announcement lost).
 *
 * Per rule, in one transaction with the rule's states locked: the new state of every watched item
 * (conditions.ts), its history event and, for a change into firing or resolved (or a repeat), one
 * notification per channel in the outbox. The outbox is sent after commit and retried with backoff,
 * so a leader that dies between the two leaves the notification to the next leader, never lost and
 * never sent twice for one change unless a send was cut off after the remote side accepted it.
 */
import type { Logger } from 'pino';
import client from 'prom-client';
import type { Db } from '../../../platform/db/index.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { AlertMessage, DeliveryResult } from '../notification-configs/channels.js';
import type { NotificationConfigRow } from '../notification-configs/repository.js';
import {
  observe,
  step,
  type LagFigures,
  type Observation,
  type RuleSpec,
  type StateRow,
  type StreamLagFigures,
  type Subject,
} from './conditions.js';
import type { AlertEventRow, AlertRuleRow, AlertRulesRepository } from './repository.js';
import { itemLink } from './service.js';

/** A run as the operations area reports it (runHistory). */
export interface RunRecord {
  id: string;
  project_id: string;
  status: 'queued' | 'running' | 'succeeded' | 'partially_failed' | 'failed' | 'cancelled';
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  subject_kind: string;
  subject_id: string;
  /** A model run: the names of the models it selected (each is a dw_model subject of its own). */
  models?: string[] | null;
  rows_written: string | number;
}

export interface CdcTableFigures {
  id: string;
  project_id: string;
  name: string;
  lag_seconds: number | null;
  lag_bytes: string | number | null;
  retained_wal_bytes: string | number | null;
}

/** A stream with its own figures (its latest run). */
export interface StreamFigures {
  id: string;
  project_id: string;
  name: string;
  lag_messages: number | null;
  lag_seconds: number | null;
}

/** An item a rule's scope may name; a disabled one (a stopped stream or CDC table) is not watched. */
export interface WatchedItem {
  kind: string;
  id: string;
  project_id: string;
  name: string;
  enabled: boolean;
}

/** Kinds whose items the directory knows: one of them missing from it was deleted. */
const DIRECTORY_KINDS = new Set(['pipeline', 'export', 'file_ingestion', 'inbox', 'dw_model', 'cdc_table', 'stream']);

/** Who else hears of an event: users whose notification settings ask for it (notification-settings). */
export interface UserNotifier {
  /** Users to notify of a change of `state` of a rule of the project: by e-mail (channel_id null) or on a channel they chose. */
  recipients(
    projectId: string,
    severity: AlertRuleRow['severity'],
    state: string,
    at: Date,
  ): Promise<Array<{ user_id: string; channel_id: string | null }>>;
  send(userId: string, message: AlertMessage): Promise<DeliveryResult>;
}

const RUNS_PER_SUBJECT = 50;
const DELIVERY_BATCH = 20;

export function createAlertEvaluator(deps: {
  db: Db;
  repository: AlertRulesRepository;
  runHistory(projectIds: string[], perSubject: number): Promise<RunRecord[]>;
  cdcTables(projectIds: string[]): Promise<CdcTableFigures[]>;
  streams(projectIds: string[]): Promise<StreamFigures[]>;
  items(projectIds: string[]): Promise<WatchedItem[]>;
  channels(ids: string[]): Promise<NotificationConfigRow[]>;
  send(channel: NotificationConfigRow, message: AlertMessage): Promise<DeliveryResult>;
  users?: () => UserNotifier | undefined;
  shared: SharedState;
  runFinishedChannel: string;
  logger: Logger;
  registry: client.Registry;
  intervalMs: number;
  deliveryTimeoutSeconds: number;
  deliveryAttempts: number;
  baseUrl: () => string;
}) {
  const { db, repository, logger } = deps;
  const evaluations = new client.Counter({
    name: 'svc_alert_evaluations_total',
    help: 'Evaluations of all alert rules by the leader.',
    registers: [deps.registry],
  });
  const evaluationSeconds = new client.Histogram({
    name: 'svc_alert_evaluation_seconds',
    help: 'Time one evaluation of all alert rules took.',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30],
    registers: [deps.registry],
  });
  const transitions = new client.Counter({
    name: 'svc_alert_transitions_total',
    help: 'Changes of state of alert rule items, by new state.',
    labelNames: ['state'] as const,
    registers: [deps.registry],
  });
  const notifications = new client.Counter({
    name: 'svc_alert_notifications_total',
    help: 'Notification attempts by channel type and outcome (sent, retry, failed).',
    labelNames: ['type', 'outcome'] as const,
    registers: [deps.registry],
  });

  new client.Gauge({
    name: 'svc_alert_items',
    help: 'Alert rule items now firing or pending, in every project.',
    labelNames: ['state'] as const,
    registers: [deps.registry],
    async collect() {
      const counts = await repository.counts(db, null).catch(() => []);
      for (const state of ['firing', 'pending'])
        this.set({ state }, Number(counts.find((c) => c.state === state)?.n ?? 0));
    },
  });

  const specOf = (rule: AlertRuleRow): RuleSpec => ({
    kind: rule.kind,
    params: rule.params,
    scope: rule.scope,
    for_seconds: rule.for_seconds,
    keep_firing_for_seconds: rule.keep_firing_for_seconds,
    repeat_interval_seconds: rule.repeat_interval_seconds,
    created_at: rule.created_at,
  });

  /** Runs grouped by subject per project; a model run counts for each model it selected (by name). */
  const subjectsOf = (runs: RunRecord[], items: WatchedItem[]) => {
    const names = new Map<string, string>(items.map((i) => [`${i.kind}:${i.id}`, i.name]));
    const modelIds = new Map(
      items.filter((i) => i.kind === 'dw_model').map((i) => [`${i.project_id}/${i.name}`, i.id] as const),
    );
    const byProject = new Map<string, Map<string, Subject>>();
    for (const run of runs) {
      const subjects = byProject.get(run.project_id) ?? new Map<string, Subject>();
      byProject.set(run.project_id, subjects);
      const targets =
        run.subject_kind === 'model_run'
          ? (run.models ?? []).flatMap((name) => {
              const id = modelIds.get(`${run.project_id}/${name}`);
              return id ? [{ kind: 'dw_model', id }] : [];
            })
          : [{ kind: run.subject_kind, id: run.subject_id }];
      for (const target of targets) {
        const key = `${target.kind}:${target.id}`;
        let subject = subjects.get(key);
        if (!subject) {
          subject = { kind: target.kind, id: target.id, name: names.get(key) ?? null, runs: [] };
          subjects.set(key, subject);
        }
        subject.runs.push({
          id: run.id,
          status: run.status,
          created_at: run.created_at,
          started_at: run.started_at,
          finished_at: run.finished_at,
          rows_written: Number(run.rows_written),
        });
      }
    }
    return byProject;
  };

  const evaluateRule = async (
    rule: AlertRuleRow,
    facts: { subjects: Subject[]; cdcTables: LagFigures[]; streams: StreamLagFigures[] },
    directory: Map<string, WatchedItem>,
  ) => {
    const now = new Date();
    await db.transaction().execute(async (trx) => {
      const locked = await repository.lockRule(trx, rule.id);
      if (!locked || !locked.enabled) return;
      const spec = specOf(locked);
      const observations = observe(spec, facts, now);
      const states = new Map((await repository.lockStates(trx, rule.id)).map((s) => [s.item_key, s]));
      const muted = locked.muted_until !== null && locked.muted_until > now;
      const items = new Map<string, Observation>(observations.map((o) => [`${o.item.kind}:${o.item.id}`, o]));
      // Items no longer observed (a deleted CDC table, a subject out of scope) count as cleared.
      for (const [key, state] of states)
        if (!items.has(key) && (state.state === 'firing' || state.state === 'pending'))
          items.set(key, {
            item: { kind: state.item_kind, id: state.item_id, name: state.item_name },
            active: false,
            value: state.value,
          });
      // A deleted or disabled item is not watched: its alert resolves at once (keep_firing_for does not
      // hold it), and a new state is never opened for it.
      const goneReason = (kind: string, id: string) => {
        if (!DIRECTORY_KINDS.has(kind)) return null;
        const known = directory.get(`${kind}:${id}`);
        return !known ? 'deleted' : known.enabled ? null : 'disabled';
      };
      for (const [key, observed] of items) {
        const current = states.get(key);
        const gone = goneReason(observed.item.kind, observed.item.id);
        if (gone && !current) continue;
        const observation: Observation = gone
          ? { ...observed, active: false, value: { ...observed.value, item: gone } }
          : observed;
        const result = step(gone ? { ...spec, keep_firing_for_seconds: 0 } : spec, current, observation.active, now);
        const next: StateRow & { value: Record<string, unknown>; deadline_at: Date | null; item_name: string | null } =
          {
            ...result.next,
            value: observation.value,
            deadline_at: observation.deadline_at ?? null,
            item_name: observation.item.name ?? current?.item_name ?? null,
          };
        const unchanged =
          current &&
          !result.event &&
          current.state === next.state &&
          current.cleared_since?.getTime() === next.cleared_since?.getTime() &&
          current.deadline_at?.getTime() === next.deadline_at?.getTime() &&
          JSON.stringify(current.value) === JSON.stringify(next.value);
        if (!current && next.state === 'ok' && !result.event) continue;
        if (!unchanged)
          await repository.saveState(trx, {
            rule_id: rule.id,
            item_key: key,
            item_kind: observation.item.kind,
            item_id: observation.item.id,
            ...next,
          });
        if (!result.event || (result.event.previous === result.event.state && !result.event.repeat)) continue;
        transitions.inc({ state: result.event.state as string });
        const { id: eventId } = await repository.addEvent(trx, {
          rule_id: rule.id,
          item_key: key,
          item_kind: observation.item.kind,
          item_id: observation.item.id,
          item_name: next.item_name,
          previous_state: result.event.previous,
          state: result.event.state,
          repeat: result.event.repeat,
          muted: muted && result.event.notify,
          value: observation.value,
          // The time the state moved by, the same clock `for` and `keep_firing_for` are counted on
          // (the database's default would be its transaction's start, a few ms off).
          at: now,
        });
        if (!result.event.notify || muted) continue;
        const users =
          (await deps.users?.()?.recipients(locked.project_id, locked.severity, result.event.state, now)) ?? [];
        await repository.addNotifications(trx, [
          ...locked.channel_ids.map((channel_id) => ({ event_id: eventId, channel_id, user_id: null })),
          // A channel the rule notifies anyway is not sent to twice.
          ...users
            .filter((u) => u.channel_id === null || !locked.channel_ids.includes(u.channel_id))
            .map((u) => ({ event_id: eventId, channel_id: u.channel_id, user_id: u.user_id })),
        ]);
      }
    });
  };

  const evaluateOnce = async () => {
    const stop = evaluationSeconds.startTimer();
    const rules = await repository.enabled(db);
    if (rules.length) {
      const projectsOf = (test: (kind: string) => boolean) => [
        ...new Set(rules.filter((r) => test(r.kind)).map((r) => r.project_id)),
      ];
      const runProjects = projectsOf((kind) => kind !== 'cdc_lag' && kind !== 'stream_lag');
      const lagProjects = projectsOf((kind) => kind === 'cdc_lag');
      const streamProjects = projectsOf((kind) => kind === 'stream_lag');
      const [runs, tables, streams, items] = await Promise.all([
        runProjects.length ? deps.runHistory(runProjects, RUNS_PER_SUBJECT) : Promise.resolve([]),
        lagProjects.length ? deps.cdcTables(lagProjects) : Promise.resolve([]),
        streamProjects.length ? deps.streams(streamProjects) : Promise.resolve([]),
        deps.items(projectsOf(() => true)),
      ]);
      const directory = new Map<string, WatchedItem>(items.map((i) => [`${i.kind}:${i.id}`, i]));
      const subjects = subjectsOf(runs, items);
      for (const rule of rules) {
        const facts = {
          subjects: [...(subjects.get(rule.project_id)?.values() ?? [])],
          streams: streams
            .filter((s) => s.project_id === rule.project_id)
            .map((s) => ({ id: s.id, name: s.name, lag_messages: s.lag_messages, lag_seconds: s.lag_seconds })),
          cdcTables: tables
            .filter((t) => t.project_id === rule.project_id)
            .map((t) => ({
              id: t.id,
              name: t.name,
              lag_seconds: t.lag_seconds,
              lag_bytes: t.lag_bytes === null ? null : Number(t.lag_bytes),
              retained_wal_bytes: t.retained_wal_bytes === null ? null : Number(t.retained_wal_bytes),
            })),
        };
        try {
          await evaluateRule(rule, facts, directory);
        } catch (error) {
          logger.warn({ err: error, rule_id: rule.id }, 'evaluating an alert rule failed');
        }
      }
    }
    evaluations.inc();
    stop();
  };

  const messageOf = (rule: AlertRuleRow, event: AlertEventRow): AlertMessage => {
    const item = event.item_name ? `${event.item_kind} "${event.item_name}"` : `${event.item_kind} ${event.item_id}`;
    const v = event.value;
    const resolved = event.state === 'resolved';
    const texts: Record<AlertRuleRow['kind'], string> = {
      run_failed: resolved ? `The latest run of ${item} succeeded again.` : `The latest run of ${item} failed.`,
      consecutive_failures: resolved
        ? `${item} no longer fails in a row.`
        : `${String(v['failures_in_a_row'])} runs of ${item} failed in a row (threshold ${String(v['threshold'])}).`,
      run_duration: resolved
        ? `Runs of ${item} are within ${rule.params['max_seconds']} s again.`
        : `A run of ${item} passed its deadline of ${rule.params['max_seconds']} s.`,
      freshness: resolved
        ? `${item} has a recent successful run again.`
        : `No successful run of ${item} for ${String(v['age_seconds'])} s (limit ${rule.params['max_age_seconds']} s).`,
      stream_lag: resolved
        ? `Stream ${item} is within its lag limits again.`
        : `Stream ${item} is over its limits: ${((v['breaches'] as string[] | undefined) ?? []).join(', ')} (${String(v['lag_messages'])} messages waiting, ${String(v['lag_seconds'])} s from publish to commit).`,
      cdc_lag: resolved
        ? `CDC table ${item} is within its lag limits again.`
        : `CDC table ${item} is over its limits: ${((v['breaches'] as string[] | undefined) ?? []).join(', ')} (lag ${String(v['lag_seconds'])} s, ${String(v['lag_bytes'])} bytes, retained WAL ${String(v['retained_wal_bytes'])} bytes).`,
      row_count: resolved
        ? `Runs of ${item} write their usual number of rows again.`
        : `The latest run of ${item} wrote ${String(v['rows_written'])} rows, under ${rule.params['fraction']} of the median ${String(v['median'])}.`,
    };
    return {
      state: resolved ? 'resolved' : 'firing',
      repeat: event.repeat,
      title: `${rule.name}: ${item}`,
      text:
        resolved && (v['item'] === 'deleted' || v['item'] === 'disabled')
          ? `${item} was ${String(v['item'])}: it is no longer watched.`
          : texts[rule.kind],
      severity: rule.severity,
      dedup_key: `svc-${rule.id}-${event.item_key}`,
      link: itemLink(deps.baseUrl(), event.item_kind, event.item_id, event.value),
      rule: { id: rule.id, name: rule.name, kind: rule.kind },
      project_id: rule.project_id,
      item: { kind: event.item_kind, id: event.item_id, name: event.item_name },
      value: event.value,
      at: event.at.toISOString(),
    };
  };

  const deliverDue = async () => {
    const due = await repository.claimDue(db, DELIVERY_BATCH, deps.deliveryTimeoutSeconds * 2 + 5);
    await Promise.all(
      due.map(async (notification) => {
        const event = await repository.event(db, notification.event_id);
        const rule = event && (await repository.find(db, event.rule_id));
        if (!event || !rule) return;
        const message = messageOf(rule, event);
        let result: DeliveryResult;
        let type = 'user';
        if (notification.channel_id) {
          const [channel] = await deps.channels([notification.channel_id]);
          if (!channel || !channel.enabled) {
            await repository.settleNotification(db, notification.id, {
              status: 'failed',
              error: 'the channel was disabled or deleted',
              response: null,
            });
            return;
          }
          type = channel.type;
          result = await deps.send(channel, message);
        } else {
          const users = deps.users?.();
          result = users
            ? await users.send(notification.user_id!, message)
            : { ok: false, status: null, response: 'user notifications are not available' };
        }
        if (result.ok) {
          notifications.inc({ type, outcome: 'sent' });
          await repository.settleNotification(db, notification.id, {
            status: 'sent',
            error: null,
            response: result.response,
          });
          return;
        }
        const last = notification.attempts >= deps.deliveryAttempts;
        notifications.inc({ type, outcome: last ? 'failed' : 'retry' });
        logger.warn(
          {
            notification_id: notification.id,
            rule_id: rule.id,
            status: result.status,
            attempts: notification.attempts,
          },
          'an alert notification failed',
        );
        await repository.settleNotification(db, notification.id, {
          status: last ? 'failed' : 'pending',
          error: `${result.status ?? 'no answer'}: ${result.response}`,
          response: result.response,
          retryInSeconds: last ? undefined : Math.min(600, 2 ** (notification.attempts - 1) * 5),
        });
      }),
    );
  };

  // One evaluation at a time in this process; a request during one runs another right after it.
  let running: Promise<void> | undefined;
  let again = false;
  const tick = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await evaluateOnce();
        await deliverDue();
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  let lastLeaderTick = 0;
  const leading = () => Date.now() - lastLeaderTick < deps.intervalMs * 3;
  let subscription: Promise<(() => Promise<void>) | undefined> | undefined;
  // Subscribed by whichever process leads (an API or a worker process), on its first tick.
  const subscribe = () =>
    (subscription ??= deps.shared
      .subscribe(deps.runFinishedChannel, () => {
        if (leading()) void tick().catch((error: Error) => logger.warn({ err: error }, 'alert evaluation failed'));
      })
      .catch((error: Error) => {
        subscription = undefined; // the next tick tries again; meanwhile the ticks read the database
        logger.warn({ err: { message: error.message } }, 'subscribing to finished runs failed');
        return undefined;
      }));

  return {
    tick,
    leaderTask: {
      name: 'alert-evaluation',
      intervalMs: deps.intervalMs,
      run: async () => {
        lastLeaderTick = Date.now();
        void subscribe();
        await tick();
      },
    },
    async close() {
      const unsubscribe = await subscription;
      await unsubscribe?.().catch(() => undefined);
      await running?.catch(() => undefined);
    },
  };
}
