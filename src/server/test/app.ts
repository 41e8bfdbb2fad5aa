import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { openPglite, openPostgres, type Database } from '../db/client';
import { loadConfig, type Config } from '../config';
import { buildApp, type AppDeps } from '../app';
import { testS3Settings } from './s3';

/**
 * A fresh database for one test file: PGlite loaded from the migrated template, or, when
 * TEST_DATABASE_URL is set, a PostgreSQL database cloned from the migrated template database.
 */
/**
 * Apps and databases a test file opened and has not closed itself: test/after-file.ts closes them
 * after each file (the one place test clean-up happens), so nothing leaks into the next file of
 * the same worker, which shares this module (isolate: false).
 */
const open = { apps: new Set<FastifyInstance>(), databases: new Set<Database>() };

export async function closeLeftovers(): Promise<void> {
  for (const app of [...open.apps]) {
    open.apps.delete(app);
    await app.close().catch(() => {});
  }
  for (const database of [...open.databases]) await database.close().catch(() => {});
}

function tracked(database: Database): Database {
  const close = database.close.bind(database);
  open.databases.add(database);
  database.close = async () => {
    open.databases.delete(database);
    await close();
  };
  return database;
}

export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const pgTemplate = process.env.SCAFFALE_TEST_PG_TEMPLATE;
  if (url && pgTemplate) {
    const name = `scaffale_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${pgTemplate}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = openPostgres(target.toString(), 4);
    const close = database.close;
    database.close = async () => {
      await close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await a.end();
    };
    return tracked(database);
  }
  const template = process.env.SCAFFALE_TEST_TEMPLATE;
  if (!template) throw new Error('vitest globalSetup did not prepare a database template');
  return tracked(await openPglite(undefined, new Blob([readFileSync(template)])));
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    { PORT: '3000', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' },
    {
      authSecret: 'test-secret-test-secret-test-secret-0123',
      dataDir: '/tmp/scaffale-test-data',
      // Suites read the outbox for confirmation and reset links.
      devMailViewer: true,
      // TEST_STORAGE=s3: uploads go to the S3-protocol server global-setup started.
      ...(process.env.SCAFFALE_TEST_S3_ENDPOINT
        ? { storage: testS3Settings(process.env.SCAFFALE_TEST_S3_ENDPOINT) }
        : {}),
      ...overrides,
    },
  );
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  inject: (opts: InjectOptions) => Promise<LightMyRequestResponse>;
}

/** buildApp on a fresh database; closed after the file's tests (test/after-file.ts). */
export async function createTestApp(
  opts: { config?: Partial<Config>; deps?: Partial<AppDeps>; database?: Database } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await createTestDatabase());
  const config = testConfig(opts.config);
  // No background timers (the hourly digest) unless the test asks: `deps: { backgroundJobs: true }`.
  const app = await buildApp({
    config,
    database,
    backgroundJobs: false,
    ...opts.deps,
  });
  await app.ready();
  // Closed, with its database, after the file's tests by test/after-file.ts.
  open.apps.add(app);
  // Requests come from loopback and from our own origin (the CSRF check) unless a test says
  // otherwise; a header given as undefined is left out (e.g. { origin: undefined }).
  const inject = (o: InjectOptions) => {
    const headers = Object.fromEntries(
      Object.entries({ origin: config.publicUrl, ...o.headers }).filter(([, v]) => v !== undefined),
    ) as InjectOptions['headers'];
    return app.inject({ remoteAddress: '127.0.0.1', ...o, headers });
  };
  return { app, database, config, inject };
}

/** Polls until `check` passes (background work such as e-mails after a commit). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() - start > timeoutMs) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
