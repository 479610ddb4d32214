#!/usr/bin/env node
/**
 * `svc serve | worker | start | migrate`. Loads the configuration once, boots the platform, and on
 * SIGTERM/SIGINT stops accepting connections, lets in-flight requests finish, closes the pools and
 * exits, all within SVC_SHUTDOWN_TIMEOUT_MS.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { createAreas, type Areas } from './areas/index.js';
import type { Scheduler } from './areas/etl/schedules/scheduler.js';
import { startLeadership, type Leadership } from './platform/leader.js';
import { ConfigError, loadConfig, type Config } from './platform/config/index.js';
import { createLoggers } from './platform/logging.js';
import { startPlatform, type Platform } from './platform/runtime.js';
import { createWorkerMetrics, startWorker, type Worker } from './worker/index.js';

const USAGE = `Usage: svc <command>

Commands:
  start     API and worker in one process (the quick start; embedded database by default)
  serve     the HTTP API only
  worker    the background worker only
  migrate   apply pending database migrations and exit`;

async function main(command: string | undefined): Promise<void> {
  if (!command || !['start', 'serve', 'worker', 'migrate'].includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(command === 'help' || command === '--help' ? 0 : 64);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const loggers = createLoggers(config.log.level);
  const logger = loggers.app;
  logger.info(
    {
      command,
      env: config.env,
      database: config.db.url ? 'external' : 'embedded',
      redis: config.redis.url ? 'external' : 'in-process',
    },
    'starting',
  );

  let platform: Platform | undefined;
  let app: FastifyInstance | undefined;
  let worker: Worker | undefined;
  let areas: Areas | undefined;
  let leadership: Leadership | undefined;
  let scheduler: Scheduler | undefined;
  let stopping = false;

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.http.shutdownTimeoutMs);
    force.unref();
    try {
      await app?.close();
      await scheduler?.stop();
      await worker?.stop();
      await leadership?.stop();
      await areas?.close();
      await platform?.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    platform = await startPlatform(config, loggers);
    if (command === 'migrate') {
      await platform.close();
      return;
    }
    areas = await createAreas(platform);
    if (command === 'serve' || command === 'start') {
      app = await buildApp(platform, { areas });
      const address = await app.listen({ host: config.http.host, port: config.http.port });
      logger.info({ address }, 'API listening');
    }
    if (command === 'worker' || command === 'start')
      worker = await startWorker(platform, areas.runs, createWorkerMetrics(platform.metrics.registry, areas.runs));
    if (config.scheduler.enabled) scheduler = areas.startScheduler();
    // Every API and worker process competes to run the background tasks; one wins.
    leadership = startLeadership(platform.framework.pool, areas.leaderTasks, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'startup failed');
    await app?.close().catch(() => undefined);
    await areas?.close().catch(() => undefined);
    await platform?.close().catch(() => undefined);
    process.exit(1);
  }
}

await main(process.argv[2]);
