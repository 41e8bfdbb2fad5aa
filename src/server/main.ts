import 'dotenv/config';
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { loadConfig, parseEnv } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { buildApp } from './app';
import { createMailer } from './platform/mail';
import { loggerOptions } from './platform/logging';
import { bucketProblem } from './platform/storage-s3';

/** The built web app sits beside the server bundle (dist/web next to dist/server). */
function findWebDir(): string | undefined {
  for (const rel of ['../web/', '../../dist/web/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}/index.html`)) return dir;
  }
  return undefined;
}

async function main() {
  const loaded = loadConfig(process.env);
  const config = { ...loaded, webDir: loaded.webDir ?? findWebDir() };
  const database = await openDatabase(config);
  const applied = await migrate(database);

  const mailer = createMailer({ database, smtpUrl: config.smtpUrl, from: config.mailFrom });
  const app = await buildApp({
    config,
    database,
    mailer,
    logger: loggerOptions(config),
  });
  if (applied.length) app.log.info({ applied }, 'database migrations applied');
  app.log.info({ database: database.kind, dataDir: config.dataDir }, 'database ready');
  app.log.info(
    config.storage.kind === 's3'
      ? { storage: 's3', bucket: config.storage.bucket, endpoint: config.storage.endpoint }
      : { storage: 'local', dir: `${config.dataDir}/uploads` },
    'uploads storage',
  );
  if (config.storage.kind === 's3') {
    const problem = await bucketProblem(config.storage);
    if (problem)
      app.log.error(
        { bucket: config.storage.bucket, endpoint: config.storage.endpoint, problem },
        'the S3 bucket does not answer: uploads will fail until it does (check the S3_* settings)',
      );
  }
  if (!config.metrics.enabled)
    app.log.info('metrics are off (production without METRICS_TOKEN): see docs/operations.md');
  if (mailer.transport === 'outbox') {
    app.log.warn(
      config.devMailViewer
        ? `SMTP_URL is not set: e-mails are kept in the outbox at ${config.publicUrl}/dev/mail (direct loopback requests only)`
        : 'SMTP_URL is not set: e-mails are kept in the outbox (DEV_MAIL_VIEWER is off, so nobody can read them)',
    );
  }

  // SIGTERM drains (platform/lifecycle.ts, docs/decisions/0062) and exits 0; a drain that does
  // not end within its bounds and 10 s more exits 1. A second signal changes nothing.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const bound = config.drain.delayMs + config.drain.timeoutMs + 10_000;
    setTimeout(() => {
      app.log.error({ bound }, 'the drain did not finish in time: exiting');
      process.exit(1);
    }, bound).unref();
    try {
      await app.lifecycle.drain();
      await database.close();
      app.log.info('drained: requests finished, jobs stopped, database closed');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'the drain failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

/**
 * WEB_CONCURRENCY=n (PostgreSQL only): n server processes sharing the port (node:cluster), each
 * with its own pool of DATABASE_POOL_SIZE connections. The processes already share everything
 * through the database (migrations under an advisory lock, realtime through LISTEN/NOTIFY,
 * digests claimed in SQL); their short in-memory caches are each their own. A process that dies
 * is replaced; SIGTERM or SIGINT drains them all (each worker drains on its own, as above) and the
 * primary exits 0 once the last one has.
 */
function primary(workers: number) {
  if (!parseEnv(process.env).DATABASE_URL) {
    console.error(
      'WEB_CONCURRENCY above 1 needs DATABASE_URL: the embedded database is one process',
    );
    process.exit(2);
  }
  let closing = false;
  let failed = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (closing) {
      failed ||= code !== 0;
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(failed ? 1 : 0);
      return;
    }
    console.error(
      `server process ${worker.process.pid} exited (${signal ?? code}); starting another`,
    );
    cluster.fork();
  });
  const stop = () => {
    closing = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

let workers = 1;
try {
  workers = parseEnv(process.env).WEB_CONCURRENCY;
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
if (cluster.isPrimary && workers > 1) primary(workers);
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
