// npm start: builds when the build is missing or older than the sources, then serves it in a child
// process and stays beside it: SIGTERM, SIGINT and SIGHUP go on to the server (which drains, see
// src/server/main.ts), and this process exits with the server's code. npm runs this script
// through `sh -c`, and a shell that dies of npm's SIGTERM passes nothing on: when this process
// finds itself orphaned (its parent gone), it stops the server as SIGTERM would.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const stamp = 'dist/build-info.json';
const built =
  existsSync(stamp) && existsSync('dist/server/main.js') && existsSync('dist/web/index.html');
const sourcesChanged = () =>
  Math.max(newest('src'), newest('public'), newest('package.json'), newest('vite.config.ts')) >
  statSync(stamp).mtimeMs;

if (!built || sourcesChanged()) {
  console.log('start: building Scaffale…');
  const res = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
// .env counts as much as the environment for the choice below (main.ts reads it again; no harm).
await import('dotenv/config');
// The outbox viewer shows every reset link: on by default only for a local, non-production start.
if (process.env.NODE_ENV !== 'production' && !process.env.DEV_MAIL_VIEWER)
  process.env.DEV_MAIL_VIEWER = 'true';
process.env.NODE_ENV ??= 'production';

const server = spawn(process.execPath, [...process.execArgv, 'dist/server/main.js'], {
  stdio: 'inherit',
  env: process.env,
});

const forward = (signal) => {
  if (server.exitCode === null && server.signalCode === null) server.kill(signal);
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => forward(signal));

// Orphaned: the shell npm started this under died of a signal meant for the server.
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(watch);
    forward('SIGTERM');
  }
}, 500);
watch.unref();

server.on('exit', (code, signal) => {
  clearInterval(watch);
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
server.on('error', (err) => {
  console.error(`start: the server could not be started: ${err.message}`);
  process.exit(1);
});
