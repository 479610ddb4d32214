/**
 * The TypeBox pieces every area's schemas are made of: ids, timestamps, lists and pages, the common
 * params and query strings. Defined once so the same thing has the same shape in /openapi.json.
 */
import { Type, type TSchema } from 'typebox';

export const Uuid = Type.String({ format: 'uuid' });
export const NullableUuid = Type.Union([Uuid, Type.Null()]);
export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** `/:id` of a resource. */
export const IdParams = Type.Object({ id: Uuid });

/** The optional `?project_id=` filter of a list. */
export const ProjectQuery = Type.Object({ project_id: Type.Optional(Uuid) }, { additionalProperties: false });

/** A list answered whole: `{items}`. */
export const Items = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item) });

/** A page of a list: `{items, next_cursor}` (null on the last page). */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), next_cursor: Type.Union([Type.String(), Type.Null()]) });

/** The response of a route that answers 204 without a body. */
export const NoContent = { 204: { type: 'null' } } as const;

/** What a schedule does with due times missed while no process ran it. */
export const MissedPolicy = Type.Union([Type.Literal('skip'), Type.Literal('run_once')], {
  description:
    'Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them',
});
/** The fields of a schedule's timing (a cron expression in a time zone, or an interval), all optional. */
export const ScheduleTiming = {
  cron: Type.Optional(
    Type.Union([
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Five fields (minute precision) or six (seconds first), read in timezone',
      }),
      Type.Null(),
    ]),
  ),
  timezone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'IANA time zone of the cron expression (default UTC)' }),
  ),
  interval_seconds: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 31_536_000 }), Type.Null()])),
  missed_policy: Type.Optional(MissedPolicy),
  paused: Type.Optional(Type.Boolean()),
};
