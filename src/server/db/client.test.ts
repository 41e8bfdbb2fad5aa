import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { lockDataDir, openPostgres } from './client';

describe('embedded database lock', () => {
  it('refuses a folder that a live process holds, and takes over a stale lock', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'scaffale-lock-')), 'pglite');
    // A live process other than this one holds the lock.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      writeFileSync(`${dir}.lock`, String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(/in use by process \d+/);
    } finally {
      other.kill();
    }
    await new Promise((r) => other.once('exit', r));
    // Its owner is gone: the lock is taken over, and released on unlock.
    const unlock = lockDataDir(dir);
    expect(existsSync(`${dir}.lock`)).toBe(true);
    unlock();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL connections', () => {
  it('run without parallel workers within a query (decision 0084)', async () => {
    const database = openPostgres(process.env.TEST_DATABASE_URL!, 2);
    try {
      const [row] = await database.query<{ workers: string }>(
        "select current_setting('max_parallel_workers_per_gather') as workers",
      );
      expect(row.workers).toBe('0');
    } finally {
      await database.close();
    }
  });
});
