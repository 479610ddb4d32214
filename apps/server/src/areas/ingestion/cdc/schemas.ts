import { Type } from 'typebox';
import { Uuid } from '../../../platform/schemas.js';

export const Side = Type.Object(
  {
    connector_id: Uuid,
    namespace: Type.Optional(
      Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
        description: "Schema or database; the connector's own when omitted",
      }),
    ),
    table: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export const Status = Type.Union([
  Type.Literal('snapshotting'),
  Type.Literal('streaming'),
  Type.Literal('paused'),
  Type.Literal('failed'),
]);
export const CdcTable = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  source: Type.Object({
    connector_id: Uuid,
    namespace: Type.Union([Type.String(), Type.Null()]),
    table: Type.String(),
  }),
  destination: Type.Object({
    connector_id: Uuid,
    namespace: Type.Union([Type.String(), Type.Null()]),
    table: Type.String(),
  }),
  mode: Type.Union([Type.Literal('mirror'), Type.Literal('changelog')]),
  desired_state: Type.Union([Type.Literal('running'), Type.Literal('stopped')]),
  status: Status,
  resync_requested: Type.Boolean(),
  last_position: Type.Union([Type.String(), Type.Null()], {
    description: 'Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position)',
  }),
  last_commit_time: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_applied_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  changes_applied: Type.Integer(),
  snapshot_rows: Type.Union([Type.Integer(), Type.Null()]),
  lag_seconds: Type.Union([Type.Number(), Type.Null()], {
    description: 'From source commit to applied, of the latest transaction; grows while the reader is behind or down',
  }),
  lag_bytes: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Change data at the source past the applied position',
  }),
  retained_wal_bytes: Type.Union([Type.Integer(), Type.Null()], {
    description: 'PostgreSQL: WAL the replication slot holds',
  }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  reader: Type.Union([Type.String(), Type.Null()], { description: 'The worker reading it now' }),
  created_by: Type.Union([Uuid, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export const LogLine = Type.Object(
  { id: Type.String(), ts: Type.String({ format: 'date-time' }), level: Type.String(), message: Type.String() },
  { additionalProperties: true },
);

export const CreateCdcTableBody = Type.Object(
  {
    project_id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    source: Side,
    destination: Side,
    mode: Type.Union([Type.Literal('mirror'), Type.Literal('changelog')], {
      description:
        'mirror: upsert and delete by primary key; changelog: append every change with operation, source position and commit time',
    }),
    start: Type.Optional(Type.Boolean({ description: 'Start at once (default true)' })),
  },
  { additionalProperties: false },
);
export const RenameCdcTableBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export const DeleteQuery = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({ description: 'Delete even when the source cannot be reached to drop the slot' }),
    ),
  },
  { additionalProperties: false },
);
export const LogQuery = Type.Object(
  {
    after_id: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);
