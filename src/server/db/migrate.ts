import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

/**
 * Migrations are plain SQL files applied in name order, each in its own transaction.
 * In the source tree they sit beside this file; the build copies them beside the bundle.
 */
export function migrationsDir(): string {
  const candidates = [
    new URL('./migrations/', import.meta.url),
    new URL('./db/migrations/', import.meta.url),
  ];
  for (const c of candidates) {
    const p = fileURLToPath(c);
    if (existsSync(p)) return p;
  }
  throw new Error('migrations folder not found');
}

export function listMigrations(dir = migrationsDir()): { name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(`${dir}/${name}`, 'utf8') }));
}

export async function migrate(database: Database, dir?: string): Promise<string[]> {
  const applied: string[] = [];
  const migrations = listMigrations(dir);
  const createTable =
    'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())';
  if (database.kind === 'postgres' && database.pool) {
    // Several processes may start at once: one migrates, the others wait on the lock. The
    // bookkeeping table too is created under it: two concurrent `create table if not exists`
    // on a new database fail one of them (duplicate pg_type row).
    const client = await database.pool.connect();
    try {
      await client.query('select pg_advisory_lock(727274)');
      await client.query(createTable);
      const done = new Set(
        (await client.query('select name from schema_migrations')).rows.map((r) => r.name),
      );
      for (const m of migrations) {
        if (done.has(m.name)) continue;
        await client.query('begin');
        try {
          await client.query(m.sql);
          await client.query('insert into schema_migrations(name) values ($1)', [m.name]);
          await client.query('commit');
          applied.push(m.name);
        } catch (err) {
          await client.query('rollback');
          throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
      }
    } finally {
      await client.query('select pg_advisory_unlock(727274)').catch(() => {});
      client.release();
    }
    return applied;
  }
  await database.exec(createTable);
  const done = new Set(
    (await database.query<{ name: string }>('select name from schema_migrations')).map(
      (r) => r.name,
    ),
  );
  for (const m of migrations) {
    if (done.has(m.name)) continue;
    try {
      await database.exec(
        `begin;\n${m.sql}\n;insert into schema_migrations(name) values ('${m.name.replace(/'/g, "''")}');\ncommit;`,
      );
      applied.push(m.name);
    } catch (err) {
      await database.exec('rollback').catch(() => {});
      throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return applied;
}
