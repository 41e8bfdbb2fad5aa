import 'dotenv/config';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { buildApp } from './app';
import { createMailer } from './platform/mail';

/** The built web app sits beside the server bundle (dist/web next to dist/server). */
function findWebDir(): string | undefined {
  for (const rel of ['../web/', '../../dist/web/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}/index.html`)) return dir;
  }
  return undefined;
}

async function main() {
  const config = loadConfig(process.env, { webDir: process.env.WEB_DIR ?? findWebDir() });
  const database = await openDatabase(config);
  const applied = await migrate(database);

  const mailer = createMailer({ database, smtpUrl: config.smtpUrl, from: config.mailFrom });
  const app = await buildApp({
    config,
    database,
    mailer,
    logger: { level: config.logLevel },
  });
  if (applied.length) app.log.info({ applied }, 'database migrations applied');
  app.log.info({ database: database.kind, dataDir: config.dataDir }, 'database ready');
  if (mailer.transport === 'outbox') {
    app.log.warn(
      `SMTP_URL is not set: e-mails are kept in the outbox at ${config.publicUrl}/dev/mail (loopback only)`,
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await database.close();
    } finally {
      clearTimeout(timer);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
