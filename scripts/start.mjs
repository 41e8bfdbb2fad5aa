// npm start: builds when the build is missing or older than the sources, then serves it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
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
await import('../dist/server/main.js');
