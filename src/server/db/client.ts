import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import * as schema from './schema/index';
import { statementOf, type Statement } from './sql';

export type Schema = typeof schema;
export type Db = PgDatabase<any, Schema>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /**
   * Parameterised SQL: a `sql` fragment, or text with its parameters written `$1`, `$2` (decision
   * 0091). Rows come as the driver gives them: `timestamptz` as a Date (see db/rows.ts).
   */
  query<T = Record<string, unknown>>(
    statement: Statement,
    params?: readonly unknown[],
  ): Promise<T[]>;
  /** Several statements at once, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  pglite?: PGlite;
  pool?: pg.Pool;
}

export const pgliteExtensions = { pg_trgm, unaccent, citext };

export function wrapPglite(client: PGlite): Database {
  return {
    kind: 'pglite',
    db: drizzlePglite(client, { schema }) as unknown as Db,
    pglite: client,
    async query(statement, params) {
      const { text, values } = statementOf(statement, params);
      const res = await client.query(text, values);
      return res.rows as any[];
    },
    async exec(sql) {
      await client.exec(sql);
    },
    async ping() {
      try {
        await client.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

export function wrapPool(pool: pg.Pool): Database {
  return {
    kind: 'postgres',
    db: drizzlePg(pool, { schema }) as unknown as Db,
    pool,
    async query(statement, params) {
      const { text, values } = statementOf(statement, params);
      const res = await pool.query(text, values);
      return res.rows;
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async ping() {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * PGlite is one process's database: a second process opening the same folder (a seed while the
 * server runs, a second server) would not see the first one's writes and could corrupt them.
 * A lock file beside the folder holds the owner's pid; a lock left by a dead process is taken over.
 */
/** The embedded database's folder is held by another live process (a running server). */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

export function lockDataDir(dataDir: string): () => void {
  const file = `${dataDir.replace(/\/$/, '')}.lock`;
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
    let alive = false;
    if (owner && owner !== process.pid) {
      try {
        process.kill(owner, 0);
        alive = true;
      } catch (err) {
        alive = (err as NodeJS.ErrnoException).code === 'EPERM';
      }
    }
    if (alive)
      throw new DataDirInUseError(
        `The embedded database in ${dataDir} is in use by process ${owner} (is \`npm start\` running?). ` +
          'Stop that process first, or use a PostgreSQL server through DATABASE_URL.',
      );
    writeFileSync(file, String(process.pid));
  }
  return () => {
    try {
      if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
    } catch {
      // already gone
    }
  };
}

export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  let unlock = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
    process.once('exit', unlock);
  }
  try {
    const client = await PGlite.create({ dataDir, loadDataDir, extensions: pgliteExtensions });
    const database = wrapPglite(client);
    const close = database.close;
    database.close = async () => {
      await close();
      unlock();
    };
    return database;
  } catch (err) {
    unlock();
    throw err;
  }
}

/**
 * Session settings of every connection to a PostgreSQL server (a startup option): no parallel
 * workers within one query. A web app runs many small queries at once; on a few cores the
 * workers one search starts take the CPU the others wait for. At a million listings on two
 * cores, PostgreSQL's own p95 at 100 searches a second fell from 627 ms to 216-224 ms without
 * them (decision 0084).
 */
export const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0';

export function openPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max, options: SESSION_OPTIONS });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  return wrapPool(pool);
}

/** The embedded database under DATA_DIR, or the PostgreSQL server at DATABASE_URL. */
export async function openDatabase(opts: {
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize?: number;
}): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.databasePoolSize);
  return openPglite(`${opts.dataDir}/pglite`);
}
