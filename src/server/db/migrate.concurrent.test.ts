import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from './client';
import { listMigrations, migrate } from './migrate';

/**
 * Replicas of a new deployment start at the same moment on an empty database (compose.yaml's
 * app1 and app2): every one must come up, the migrations applied exactly once.
 */
const url = process.env.TEST_DATABASE_URL;
describe.skipIf(!url)('migrations on PostgreSQL started by several processes at once', () => {
  it('applies each migration once and fails no process, on a new database', async () => {
    const name = `scaffale_migrate_race_${process.pid}_${Date.now()}`;
    const admin = new URL(url!);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`create database ${name}`);
    const target = new URL(url!);
    target.pathname = `/${name}`;
    const processes = [0, 1, 2, 3].map(() => openPostgres(target.toString(), 1));
    try {
      const results = await Promise.allSettled(processes.map((db) => migrate(db)));
      expect(results.map((r) => r.status)).toEqual(Array(4).fill('fulfilled'));
      const applied = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
      expect(applied.sort()).toEqual(listMigrations().map((m) => m.name));
      const rows = await processes[0].query<{ n: number }>(
        'select count(*)::int as n from schema_migrations',
      );
      expect(rows[0].n).toBe(listMigrations().length);
    } finally {
      for (const db of processes) await db.close();
      await client.query(`drop database ${name}`);
      await client.end();
    }
  }, 120_000);
});
