import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'scaffale-seed-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('npm run seed:demo beside a running server says so in one message, no stack, and fails', () => {
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  // The embedded database is held by a live process (this one stands in for `npm start`).
  writeFileSync(join(dataDir, 'pglite.lock'), String(process.pid));
  const run = spawnSync(join(repo, 'node_modules/.bin/tsx'), ['scripts/seed/run.ts'], {
    cwd: repo,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr.trim()).toBe(
    `The embedded database in ${dataDir}/pglite is in use by process ${process.pid} (is \`npm start\` running?). ` +
      'Stop that process first, or use a PostgreSQL server through DATABASE_URL.',
  );
  expect(run.stderr).not.toMatch(/\n\s+at /);
}, 60_000);
