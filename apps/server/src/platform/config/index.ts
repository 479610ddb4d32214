/**
 * The only reader of process.env. Every setting is one entry (SVC_ name, parser, default, doc line),
 * grouped by concern; the Config type is derived from the entries, so the two cannot drift apart.
 * A bad value stops startup with a message naming the variable.
 */
import { bool, entry, integer, oneOf, optionalEntry, text, url, type Entry } from './entries.js';

export const BUILT_IN_ADMIN_PASSWORD = 'change-me-now-please';

export const configSchema = {
  env: entry(
    'SVC_ENV',
    oneOf(['development', 'production'] as const),
    'development',
    'Run mode. production turns on the startup guards (JWT secret length, built-in admin password) and Secure cookies.',
  ),
  commit: optionalEntry(
    'SVC_COMMIT',
    text(),
    'Short revision of the build, reported by GET /health. Unset: read from git when available, else "unknown".',
  ),
  dataDir: entry(
    'SVC_DATA_DIR',
    text(),
    './data',
    'Directory for local state: the embedded PostgreSQL cluster, the generated development JWT secret, the initial password file fallback.',
  ),
  http: {
    host: entry(
      'SVC_HOST',
      text(),
      '127.0.0.1',
      'Address the API listens on. Use 0.0.0.0 to accept connections from other machines.',
    ),
    port: entry('SVC_PORT', integer({ min: 0, max: 65535 }), 8080, 'TCP port of the API (0 picks a free port).'),
    trustProxy: entry(
      'SVC_TRUST_PROXY',
      bool(),
      false,
      'Honour X-Forwarded-For (client address for rate limits and the audit log). Turn on only behind a proxy you control.',
    ),
    bodyLimitBytes: entry(
      'SVC_BODY_LIMIT_BYTES',
      integer({ min: 1024 }),
      1_048_576,
      'Largest accepted request body; a larger one is refused with 413.',
    ),
    requestTimeoutMs: entry(
      'SVC_REQUEST_TIMEOUT_MS',
      integer({ min: 1000 }),
      30_000,
      'Time allowed to receive a whole request (headers and body) before the connection is dropped.',
    ),
    shutdownTimeoutMs: entry(
      'SVC_SHUTDOWN_TIMEOUT_MS',
      integer({ min: 100 }),
      10_000,
      'On SIGTERM/SIGINT: time to finish in-flight requests and close pools before the process exits anyway.',
    ),
  },
  db: {
    url: optionalEntry(
      'SVC_DATABASE_URL',
      url(['postgres:', 'postgresql:']),
      'Framework PostgreSQL (postgres://user:pass@host:5432/db). Unset: an embedded PostgreSQL is started under SVC_DATA_DIR.',
    ),
    warehouseDatabase: optionalEntry(
      'SVC_WAREHOUSE_DATABASE',
      text(),
      'Database of the built-in warehouse connector, on the framework PostgreSQL server (created when missing; each project works in it as a role of its own, so the service\'s login needs CREATEROLE). Unset: the framework database name + "_warehouse".',
    ),
    warehouseStatementTimeoutMs: entry(
      'SVC_WAREHOUSE_STATEMENT_TIMEOUT_MS',
      integer({ min: 1000 }),
      3_600_000,
      "Longest a statement of a project's warehouse role may run (its statement_timeout), in milliseconds.",
    ),
    warehouseConnectionsPerProject: entry(
      'SVC_WAREHOUSE_CONNECTIONS_PER_PROJECT',
      integer({ min: 2, max: 1000 }),
      30,
      "Connections one project's warehouse role may hold at once (its CONNECTION LIMIT).",
    ),
    poolMax: entry(
      'SVC_DATABASE_POOL_MAX',
      integer({ min: 1, max: 500 }),
      10,
      'Connections in the framework database pool of each process.',
    ),
  },
  redis: {
    url: optionalEntry(
      'SVC_REDIS_URL',
      url(['redis:', 'rediss:']),
      'Redis for rate-limit counters, the deny-list cache and pub/sub. Unset: in-process stand-ins (one process only).',
    ),
    keyPrefix: entry(
      'SVC_REDIS_KEY_PREFIX',
      text(),
      'svc:',
      'Prefix of every Redis key and channel, so that several instances can share one Redis.',
    ),
  },
  secrets: {
    encryptionKey: optionalEntry(
      'SVC_ENCRYPTION_KEY',
      text(),
      'Key that encrypts secrets at rest (connector passwords, ...): 32 bytes as base64 or 64 hex digits. Required in production; unset in development: generated once and kept in SVC_DATA_DIR.',
    ),
    previousKeys: entry(
      'SVC_ENCRYPTION_PREVIOUS_KEYS',
      text(),
      '',
      'Comma-separated earlier values of SVC_ENCRYPTION_KEY, still accepted for decryption while secrets are re-encrypted (key rotation).',
    ),
  },
  files: {
    root: optionalEntry(
      'SVC_FILES_ROOT',
      text(),
      'The only directory tree that `files` connectors may read and write; each project has its own folder in it (<root>/<project id>) and reaches nothing else. Unset: SVC_DATA_DIR/files.',
    ),
    uploadMaxBytes: entry(
      'SVC_FILE_UPLOAD_MAX_BYTES',
      integer({ min: 1024 }),
      10_737_418_240,
      'Largest file accepted by an upload to a file ingestion (POST /file-ingestions/{id}/files), streamed to disk; a larger one is refused with 413 and nothing is kept.',
    ),
    archiveMaxBytes: entry(
      'SVC_FILE_ARCHIVE_MAX_BYTES',
      integer({ min: 1024 }),
      10_737_418_240,
      'Most bytes the members of one zip archive taken in by a file ingestion may expand to, all members together; a larger archive fails with nothing of it loaded. Checked against the archive directory before anything is expanded, and again while the members are inflated.',
    ),
    archiveMaxMembers: entry(
      'SVC_FILE_ARCHIVE_MAX_MEMBERS',
      integer({ min: 1 }),
      10_000,
      'Most entries one zip archive taken in by a file ingestion may have; an archive with more fails with nothing of it loaded.',
    ),
    archiveMaxRatio: entry(
      'SVC_FILE_ARCHIVE_MAX_RATIO',
      integer({ min: 2 }),
      200,
      'Highest expansion ratio (uncompressed size / compressed size) of a zip archive member above 1 MiB; a member past it (a zip bomb) fails the archive with nothing of it loaded.',
    ),
  },
  connectors: {
    allowedHosts: entry(
      'SVC_CONNECTOR_ALLOWED_HOSTS',
      text(),
      '',
      'Comma-separated CIDRs (10.1.0.0/16, ::1/128), addresses and host names (db.internal, *.corp.example) that connectors may always reach, whatever the other egress rules say. Local databases need it: 127.0.0.1,::1 for servers on this machine.',
    ),
    allowPrivateNetworks: entry(
      'SVC_CONNECTOR_ALLOW_PRIVATE_NETWORKS',
      bool(),
      false,
      "Whether connectors may reach private network addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7). Loopback, link-local and the service's own database and Redis stay refused unless listed in SVC_CONNECTOR_ALLOWED_HOSTS.",
    ),
    httpMaxResponseBytes: entry(
      'SVC_HTTP_MAX_RESPONSE_BYTES',
      integer({ min: 1024 }),
      52_428_800,
      'Largest body of one HTTP response a connector reads (http_api); a larger one fails the request as soon as it crosses the limit.',
    ),
  },
  worker: {
    concurrency: entry(
      'SVC_WORKER_CONCURRENCY',
      integer({ min: 1, max: 64 }),
      2,
      'Jobs (runs) one worker process executes at once.',
    ),
    cancelPollSeconds: entry(
      'SVC_RUN_CANCEL_POLL_SECONDS',
      integer({ min: 1, max: 3600 }),
      10,
      'A cancel request reaches the run at once by pub/sub; a running run also reads its cancel flag in the database this often, in case a message was lost.',
    ),
    leaseSeconds: entry(
      'SVC_WORKER_LEASE_SECONDS',
      integer({ min: 2, max: 3600 }),
      30,
      'Lease of a claimed job, renewed every third of it while the job runs; a worker that died loses its jobs to another worker this long after its last renewal, and a worker that cannot renew for three quarters of it stops the run itself.',
    ),
  },
  cdc: {
    leaseSeconds: entry(
      'SVC_CDC_LEASE_SECONDS',
      integer({ min: 3, max: 300 }),
      15,
      "Lease of a CDC table's reader, renewed every third of it: if its worker dies, another worker takes the table over this long after the last renewal.",
    ),
    maxTablesPerWorker: entry(
      'SVC_CDC_MAX_TABLES_PER_WORKER',
      integer({ min: 0, max: 1000 }),
      50,
      'CDC tables one worker process reads at most (0: this worker reads none).',
    ),
    maxInFlightChanges: entry(
      'SVC_CDC_MAX_IN_FLIGHT_CHANGES',
      integer({ min: 100, max: 1_000_000 }),
      10_000,
      'Changes of one CDC table read from the source but not yet applied, at most: when the destination falls behind, the reader stops reading (and the source keeps the rest: WAL or binlog) until applies make room, so memory stays bounded whatever the write rate. One apply takes at most half of it. Larger: fewer, bigger destination transactions; smaller: less memory.',
    ),
    threadHeapMb: entry(
      'SVC_CDC_THREAD_HEAP_MB',
      integer({ min: 0, max: 16_384 }),
      128,
      "CDC tables of a worker process are read and applied in a thread of their own (off the event loop that, under `svc start`, also serves the API), whose JavaScript heap is capped at this many MB; 0: in the process's main thread, uncapped.",
    ),
    sourceHeartbeatSeconds: entry(
      'SVC_CDC_SOURCE_HEARTBEAT_SECONDS',
      integer({ min: 1, max: 3600 }),
      10,
      'While a captured table is idle, how often the reader makes its position move (PostgreSQL: a transactional logical message), so the slot keeps advancing and retained WAL stays bounded.',
    ),
    sseHeartbeatSeconds: entry(
      'SVC_SSE_HEARTBEAT_SECONDS',
      integer({ min: 1, max: 300 }),
      15,
      'Interval of the heartbeat comment on live event streams (SSE); each stream also re-checks its credential and rights then, should a change notice have been lost.',
    ),
    lagSampleSeconds: entry(
      'SVC_LAG_SAMPLE_SECONDS',
      integer({ min: 5, max: 600 }),
      30,
      'How often the leader process records the lag of every CDC table and stream, for the lag charts of the last hour (GET /cdc-tables/{id}/lag-history, /streams/{id}/lag-history); samples older than an hour are dropped.',
    ),
  },
  streams: {
    leaseSeconds: entry(
      'SVC_STREAMS_LEASE_SECONDS',
      integer({ min: 3, max: 300 }),
      15,
      "Lease of a running stream's consumer, renewed every third of it: if its worker dies, another worker takes the stream over this long after the last renewal.",
    ),
    maxPerWorker: entry(
      'SVC_STREAMS_MAX_PER_WORKER',
      integer({ min: 0, max: 1000 }),
      50,
      'Streams one worker process consumes at most (0: this worker consumes none).',
    ),
    ackWaitSeconds: entry(
      'SVC_STREAMS_ACK_WAIT_SECONDS',
      integer({ min: 1, max: 3600 }),
      30,
      'How long a broker waits for the acknowledgement of a delivered message before it delivers it again (NATS ack_wait, Redis idle time for XAUTOCLAIM): what a worker that died had in flight reaches its successor after this long.',
    ),
  },
  scheduler: {
    enabled: entry(
      'SVC_SCHEDULER_ENABLED',
      bool(),
      true,
      'Whether this process (API or worker) takes part in firing pipeline schedules. Any number may: each due time is enqueued exactly once.',
    ),
    tickMs: entry(
      'SVC_SCHEDULER_TICK_MS',
      integer({ min: 100, max: 60_000 }),
      1000,
      'How often a scheduler looks for due pipeline schedules, and the leader for due export schedules, in milliseconds.',
    ),
    graceSeconds: entry(
      'SVC_SCHEDULER_GRACE_SECONDS',
      integer({ min: 1, max: 86_400 }),
      60,
      'A due time of a pipeline or export schedule found later than this (the service was down) counts as missed: the `skip` policy then does not run it, `run_once` runs once for all missed times.',
    ),
  },
  models: {
    runConcurrency: entry(
      'SVC_MODELS_RUN_CONCURRENCY',
      integer({ min: 1, max: 64 }),
      4,
      "Warehouse models one model run builds at once (those whose upstream models are done); each holds one of the project's warehouse connections.",
    ),
  },
  alerting: {
    evaluationMs: entry(
      'SVC_ALERT_EVALUATION_MS',
      integer({ min: 100, max: 600_000 }),
      2000,
      'How often the leader evaluates alert rules, in milliseconds; a finished run also starts an evaluation of its project at once.',
    ),
    deliveryTimeoutSeconds: entry(
      'SVC_ALERT_DELIVERY_TIMEOUT_SECONDS',
      integer({ min: 1, max: 300 }),
      15,
      'Time allowed to one notification (SMTP, Slack, Teams, webhook, PagerDuty) before it counts as failed and is retried.',
    ),
    deliveryAttempts: entry(
      'SVC_ALERT_DELIVERY_ATTEMPTS',
      integer({ min: 1, max: 100 }),
      5,
      'Attempts of one notification (with backoff) before it is given up and marked failed.',
    ),
  },
  auditForwarding: {
    pollMs: entry(
      'SVC_AUDIT_FORWARD_POLL_MS',
      integer({ min: 50, max: 600_000 }),
      1000,
      'How often the leader looks for new audit events to forward, in milliseconds.',
    ),
    batchSize: entry(
      'SVC_AUDIT_FORWARD_BATCH_SIZE',
      integer({ min: 1, max: 10_000 }),
      500,
      'Audit events sent to a destination in one batch (one HTTP request; one write of syslog lines).',
    ),
    maxBacklog: entry(
      'SVC_AUDIT_FORWARD_MAX_BACKLOG',
      integer({ min: 1 }),
      100_000,
      'Events a destination may fall behind; older ones beyond this are skipped, counted and the skip itself audited.',
    ),
  },
  lineage: {
    enabled: entry(
      'SVC_LINEAGE_ENABLED',
      bool(),
      true,
      'Record the lineage of runs (datasets read and written, column lineage, OpenLineage events); off, runs record none and the lineage API serves what was recorded before.',
    ),
  },
  retention: {
    batchRows: entry(
      'SVC_RETENTION_BATCH_ROWS',
      integer({ min: 100, max: 100_000 }),
      5000,
      'Rows a retention sweep deletes per batch; each batch is its own short transaction, so no lock is held for longer than one batch.',
    ),
    auditFloorDays: entry(
      'SVC_RETENTION_AUDIT_FLOOR_DAYS',
      integer({ min: 1, max: 36_500 }),
      90,
      'Shortest max_age an audit-events retention policy may have, in days: audit events younger than this are never swept.',
    ),
    tickSeconds: entry(
      'SVC_RETENTION_TICK_SECONDS',
      integer({ min: 1, max: 3600 }),
      30,
      'How often the leader looks for retention policies whose schedule is due, in seconds.',
    ),
  },
  log: {
    level: entry(
      'SVC_LOG_LEVEL',
      oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
      'info',
      'Level of the JSON log written to stdout.',
    ),
  },
  rateLimit: {
    perMinute: entry(
      'SVC_RATE_LIMIT_PER_MINUTE',
      integer({ min: 1 }),
      100,
      'Requests per minute per client, over all endpoints.',
    ),
    loginPerMinute: entry(
      'SVC_LOGIN_RATE_LIMIT_PER_MINUTE',
      integer({ min: 1 }),
      10,
      'Requests per client to POST /api/v1/auth/login in any 60-second span (a sliding window), on top of the global limit.',
    ),
  },
  auth: {
    jwtSecret: optionalEntry(
      'SVC_JWT_SECRET',
      text(),
      'HMAC secret that signs access tokens (at least 32 characters in production). Unset in development: a random secret is generated once and kept in SVC_DATA_DIR.',
    ),
    jwtAlgorithm: entry(
      'SVC_JWT_ALGORITHM',
      oneOf(['HS256', 'HS384', 'HS512'] as const),
      'HS256',
      'HMAC algorithm of access tokens.',
    ),
    accessTokenTtlMinutes: entry(
      'SVC_ACCESS_TOKEN_TTL_MINUTES',
      integer({ min: 1, max: 1440 }),
      15,
      'Lifetime of access tokens, in minutes.',
    ),
    refreshTokenTtlDays: entry(
      'SVC_REFRESH_TOKEN_TTL_DAYS',
      integer({ min: 1, max: 365 }),
      7,
      'Lifetime of refresh tokens, in days.',
    ),
    retentionSweepSeconds: entry(
      'SVC_RETENTION_SWEEP_SECONDS',
      integer({ min: 1 }),
      300,
      'Interval of the retention sweep that prunes expired deny-list entries and refresh tokens.',
    ),
    ssoStateTtlSeconds: entry(
      'SVC_SSO_STATE_TTL_SECONDS',
      integer({ min: 1, max: 3600 }),
      600,
      'Lifetime of the signed state of a single sign-on: a callback later than this is refused, and each state is accepted once.',
    ),
    publicUrl: optionalEntry(
      'SVC_PUBLIC_URL',
      text(),
      'The URL users reach this service at (e.g. https://svc.example.com): the base of the SSO callback (<url>/api/v1/sso/callback), which providers must allow. Unset: taken from each request (Host header).',
    ),
    licensePublicKey: optionalEntry(
      'SVC_LICENSE_PUBLIC_KEY',
      text(),
      'PEM of the Ed25519 public key that license files are verified against. Unset: a license cannot be installed (community mode).',
    ),
    bcryptRounds: entry(
      'SVC_BCRYPT_ROUNDS',
      integer({ min: 4, max: 16 }),
      12,
      'bcrypt cost factor for password hashes.',
    ),
    initialAdminUsername: entry(
      'SVC_INITIAL_ADMIN_USERNAME',
      text(),
      'admin',
      'Username of the administrator seeded on first boot.',
    ),
    initialAdminEmail: entry(
      'SVC_INITIAL_ADMIN_EMAIL',
      text(),
      'admin@localhost',
      'Email of the seeded administrator.',
    ),
    initialAdminPassword: entry(
      'SVC_INITIAL_ADMIN_PASSWORD',
      text(),
      BUILT_IN_ADMIN_PASSWORD,
      `Password of the seeded administrator, which must change it at first login. The built-in default ("${BUILT_IN_ADMIN_PASSWORD}") is refused in production.`,
    ),
    createDefaultProject: entry(
      'SVC_CREATE_DEFAULT_PROJECT',
      bool(),
      true,
      'On first boot, when the initial administrator is seeded, also create a project named "default" with that administrator as its owner (one process does it, whichever seeds the administrator).',
    ),
    initialPasswordFile: optionalEntry(
      'SVC_INITIAL_PASSWORD_FILE',
      text(),
      'File (mode 0600) that receives the seeded password once. Unset: /var/svc/initial-password.txt when that directory can be written, else SVC_DATA_DIR/initial-password.txt.',
    ),
  },
} as const;

type ConfigOf<S> = { -readonly [K in keyof S]: S[K] extends Entry<infer T> ? T : ConfigOf<S[K]> };
export type Config = ConfigOf<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function isEntry(value: unknown): value is Entry<unknown> {
  return typeof value === 'object' && value !== null && 'env' in value && 'parse' in value;
}

/** Every entry with its path in the config object, for docs and tests. */
export function listEntries(
  node: object = configSchema,
  prefix: string[] = [],
): Array<{ path: string[]; entry: Entry<unknown> }> {
  return Object.entries(node).flatMap(([key, value]) =>
    isEntry(value) ? [{ path: [...prefix, key], entry: value }] : listEntries(value as object, [...prefix, key]),
  );
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const build = (node: object): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (!isEntry(value)) return [key, build(value as object)];
        const raw = env[value.env];
        if (raw === undefined || raw === '') return [key, value.default];
        try {
          return [key, value.parse(raw)];
        } catch (error) {
          problems.push(`${value.env}: ${(error as Error).message}`);
          return [key, value.default];
        }
      }),
    );
  const config = build(configSchema) as Config;
  problems.push(...productionGuards(config));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function productionGuards(config: Config): string[] {
  if (config.env !== 'production') return [];
  const problems: string[] = [];
  if (!config.auth.jwtSecret || config.auth.jwtSecret.length < 32) {
    problems.push('SVC_JWT_SECRET: must be set to at least 32 characters in production');
  }
  if (!config.secrets.encryptionKey) {
    problems.push('SVC_ENCRYPTION_KEY: must be set in production (32 bytes, base64 or hex)');
  }
  if (config.auth.initialAdminPassword === BUILT_IN_ADMIN_PASSWORD) {
    problems.push('SVC_INITIAL_ADMIN_PASSWORD: the built-in default password is refused in production; set your own');
  }
  return problems;
}
