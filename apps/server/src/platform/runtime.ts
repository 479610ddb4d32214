/**
 * Boots what every process needs, in order: the framework database (external or embedded),
 * migrations, shared state (Redis or the in-process stand-in). close() releases them in reverse.
 */
import type { Logger } from 'pino';
import type { Config } from './config/index.js';
import type { Loggers } from './logging.js';
import { createMetrics, type Metrics } from './metrics.js';
import { connectionFromUrl, createFrameworkDb, type FrameworkDb } from './db/index.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded-postgres.js';
import { migrateToLatest } from './db/migrate.js';
import { createMemoryState, createRedisState, type SharedState } from './shared-state/index.js';
import { resolveVersion, type VersionInfo } from './version.js';

export interface Platform {
  config: Config;
  /** The process's Prometheus registry (served by the API at /metrics). */
  metrics: Metrics;
  logger: Logger;
  accessLogger: Logger;
  framework: FrameworkDb;
  shared: SharedState;
  version: VersionInfo;
  close(): Promise<void>;
}

export async function startPlatform(
  config: Config,
  loggers: Loggers,
  options: { migrate?: boolean } = {},
): Promise<Platform> {
  const logger = loggers.app;
  let embedded: EmbeddedPostgres | undefined;
  let framework: FrameworkDb | undefined;
  try {
    if (config.db.url) {
      framework = createFrameworkDb(connectionFromUrl(config.db.url), config.db.poolMax);
    } else {
      embedded = await startEmbeddedPostgres(config.dataDir, logger);
      framework = createFrameworkDb(embedded.connection, config.db.poolMax);
    }
    if (options.migrate !== false) await migrateToLatest(framework, logger);
    const shared = config.redis.url
      ? await createRedisState(config.redis.url, logger, config.redis.keyPrefix)
      : createMemoryState();
    const fw = framework;
    const emb = embedded;
    return {
      config,
      metrics: createMetrics(fw.pool),
      logger,
      accessLogger: loggers.access,
      framework: fw,
      shared,
      version: resolveVersion(config.commit),
      async close() {
        await shared.close().catch((error: Error) => logger.warn({ err: error }, 'closing shared state failed'));
        await fw.close().catch((error: Error) => logger.warn({ err: error }, 'closing database pool failed'));
        await emb?.stop();
      },
    };
  } catch (error) {
    await framework?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
}
