/**
 * Creating, changing and deleting one kind of named resource: each write in a transaction together
 * with its audit event (`<kind>_created` with the name, `<kind>_updated` with the fields given,
 * `<kind>_deleted` with the name), a name already taken answered by the kind's conflict, and a row
 * gone before its update answered 404. The rules of what is written stay with each service.
 */
import { onUniqueViolation, type Db } from './db/index.js';
import { notFound } from './errors/index.js';
import type { RequestContext } from './request-context.js';

export interface AuditedEvent {
  kind: string;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
}

/** What these writes need of the audit log (the audit area's service). */
export interface AuditLog {
  record(context: RequestContext, event: AuditedEvent, trx?: Db): Promise<unknown>;
}

interface NamedRow {
  id: string;
  name: string;
}

export function auditedWrites<Row extends NamedRow>(
  deps: { db: Db; audit: AuditLog },
  options: {
    /** The audit target type, and the first part of the event kinds. */
    kind: string;
    /** The not-found label of the kind. */
    label: string;
    nameTaken: (name: string) => Error;
    /** The unique constraint that means "name taken" (any unique violation when not given). */
    nameConstraint?: string;
  },
) {
  const { db, audit } = deps;
  const { kind } = options;
  const named = <T>(work: Promise<T>, name: string) =>
    onUniqueViolation(work, () => options.nameTaken(name), options.nameConstraint);

  return {
    /** Inserts the row with `<kind>_created`; `details` default to its name. */
    create: (
      context: RequestContext,
      name: string,
      insert: (trx: Db) => Promise<Row>,
      details: (created: Row) => Record<string, unknown> = (created) => ({ name: created.name }),
    ) =>
      named(
        db.transaction().execute(async (trx) => {
          const created = await insert(trx);
          await audit.record(
            context,
            { kind: `${kind}_created`, target: { type: kind, id: created.id }, details: details(created) },
            trx,
          );
          return created;
        }),
        name,
      ),

    /**
     * Updates the row (404 when `write` finds it gone) with `<kind>_updated`, whose details name the
     * fields of `patch` (never their values: a patch may carry a secret) unless `event` says otherwise.
     */
    update: (
      context: RequestContext,
      id: string,
      name: string,
      patch: object,
      write: (trx: Db) => Promise<Row | undefined>,
      event: Partial<Pick<AuditedEvent, 'kind' | 'details'>> = {},
    ) =>
      named(
        db.transaction().execute(async (trx) => {
          const updated = await write(trx);
          if (!updated) throw notFound(options.label);
          await audit.record(
            context,
            {
              kind: event.kind ?? `${kind}_updated`,
              target: { type: kind, id },
              details: event.details ?? { fields: Object.keys(patch) },
            },
            trx,
          );
          return updated;
        }),
        name,
      ),

    /** Deletes the row with `<kind>_deleted`, its details as given (the name, usually). */
    remove: (
      context: RequestContext,
      id: string,
      details: Record<string, unknown> | undefined,
      remove: (trx: Db) => Promise<unknown>,
    ) =>
      db.transaction().execute(async (trx) => {
        await remove(trx);
        await audit.record(
          context,
          { kind: `${kind}_deleted`, target: { type: kind, id }, ...(details ? { details } : {}) },
          trx,
        );
      }),
  };
}
