import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm start` (scripts/start.mjs) against a built app whose server is a stub: the stub writes
 * its pid, says 'ready', and on SIGTERM or SIGINT writes the signal down and exits with
 * STUB_EXIT. The launcher must hand the signal on and end with the server, also when npm's shell
 * in between dies of the signal instead of passing it on.
 */
const repo = fileURLToPath(new URL('..', import.meta.url));
const STUB = `import { writeFileSync } from 'node:fs';
writeFileSync('server.pid', String(process.pid));
const stop = (signal) => {
  writeFileSync('server.signal', signal);
  setTimeout(() => process.exit(Number(process.env.STUB_EXIT ?? 0)), 100);
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
if (process.env.STUB_CRASH) process.exit(Number(process.env.STUB_CRASH));
console.log('ready');
setInterval(() => {}, 1000);
`;

const dirs: string[] = [];

/** A tree with scripts/start.mjs and a fresh build (the stub), so nothing is rebuilt. */
function fakeApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scaffale-start-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'dist/server'), { recursive: true });
  mkdirSync(join(dir, 'dist/web'));
  copyFileSync(join(repo, 'scripts/start.mjs'), join(dir, 'scripts/start.mjs'));
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'start-test',
      type: 'module',
      scripts: { start: 'node scripts/start.mjs' },
    }),
  );
  writeFileSync(join(dir, 'dist/server/main.js'), STUB);
  writeFileSync(join(dir, 'dist/web/index.html'), '<!doctype html>');
  writeFileSync(join(dir, 'dist/build-info.json'), '{}');
  // The build is newer than every source: start.mjs serves it as it is.
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(dir, 'dist/build-info.json'), later, later);
  return dir;
}

function launch(dir: string, command: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(command, args, {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function until(check: () => boolean, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const serverPid = (dir: string) => Number(readFileSync(join(dir, 'server.pid'), 'utf8'));

describe('npm start', () => {
  it('passes SIGTERM on to the server and exits with its code', async () => {
    const dir = fakeApp();
    const run = launch(dir, process.execPath, ['scripts/start.mjs'], { STUB_EXIT: '3' });
    await until(() => run.output().includes('ready'), 'the server');
    const pid = serverPid(dir);
    expect(pid).not.toBe(run.child.pid);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(3);
    expect(readFileSync(join(dir, 'server.signal'), 'utf8')).toBe('SIGTERM');
    await until(() => !alive(pid), 'the server to end');
  });

  it('passes SIGINT on too', async () => {
    const dir = fakeApp();
    const run = launch(dir, process.execPath, ['scripts/start.mjs']);
    await until(() => run.output().includes('ready'), 'the server');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(readFileSync(join(dir, 'server.signal'), 'utf8')).toBe('SIGINT');
  });

  it('stops the server when npm is sent SIGTERM (the shell between them passes nothing on)', async () => {
    const dir = fakeApp();
    const run = launch(dir, 'npm', ['start', '--silent']);
    await until(() => run.output().includes('ready'), 'the server');
    const pid = serverPid(dir);
    run.child.kill('SIGTERM');
    await run.exited;
    await until(() => existsSync(join(dir, 'server.signal')), 'the server to hear SIGTERM');
    expect(readFileSync(join(dir, 'server.signal'), 'utf8')).toBe('SIGTERM');
    await until(() => !alive(pid), 'the server to end');
  }, 30_000);

  it('ends with the server when the server ends by itself', async () => {
    const dir = fakeApp();
    const run = launch(dir, process.execPath, ['scripts/start.mjs'], { STUB_CRASH: '7' });
    expect(await run.exited).toBe(7);
  });
});

// Never leave a stub running if a test failed half-way.
afterAll(() => {
  for (const dir of dirs) {
    if (existsSync(join(dir, 'server.pid')) && alive(serverPid(dir)))
      process.kill(serverPid(dir), 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
