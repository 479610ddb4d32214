/** Every migration, in order. Forward-only: a released migration is never edited, only followed. */
import type { Migration } from 'kysely';
import * as m0001 from './0001_identity.js';
import * as m0002 from './0002_access.js';
import * as m0003 from './0003_member_ids.js';
import * as m0004 from './0004_connectivity.js';
import * as m0005 from './0005_executions.js';
import * as m0006 from './0006_execution_ranges.js';
import * as m0007 from './0007_bytes_written.js';
import * as m0008 from './0008_etl.js';
import * as m0009 from './0009_cdc.js';
import * as m0010 from './0010_external_identity.js';
import * as m0011 from './0011_connector_versions.js';
import * as m0012 from './0012_streams.js';
import * as m0013 from './0013_exports.js';
import * as m0015 from './0015_models_ai.js';
import * as m0017 from './0017_alerting.js';
import * as m0014 from './0014_file_ingestions_inboxes.js';
import * as m0018 from './0018_retention.js';
import * as m0021 from './0021_streams_ledger.js';
import * as m0022 from './0022_lineage_catalog.js';
import * as m0024 from './0024_email_feeds.js';
import * as m0023 from './0023_masking.js';
import * as m0020 from './0020_lag_samples.js';
import * as m0025 from './0025_export_schedules.js';
import * as m0026 from './0026_model_schedules.js';
import * as m0027 from './0027_file_ingestion_archives.js';
import * as m0028 from './0028_email_feed_idle.js';

export const migrations: Record<string, Migration> = {
  '0001_identity': m0001,
  '0002_access': m0002,
  '0003_member_ids': m0003,
  '0004_connectivity': m0004,
  '0005_executions': m0005,
  '0006_execution_ranges': m0006,
  '0007_bytes_written': m0007,
  '0008_etl': m0008,
  '0009_cdc': m0009,
  '0010_external_identity': m0010,
  '0011_connector_versions': m0011,
  '0012_streams': m0012,
  '0013_exports': m0013,
  '0015_models_ai': m0015,
  '0017_alerting': m0017,
  '0014_file_ingestions_inboxes': m0014,
  '0018_retention': m0018,
  '0021_streams_ledger': m0021,
  '0022_lineage_catalog': m0022,
  '0024_email_feeds': m0024,
  '0023_masking': m0023,
  '0020_lag_samples': m0020,
  '0025_export_schedules': m0025,
  '0026_model_schedules': m0026,
  '0027_file_ingestion_archives': m0027,
  '0028_email_feed_idle': m0028,
};
