// npm test: every suite. Typecheck, lint and format check, unit and API tests on the embedded
// database (and on PostgreSQL when TEST_DATABASE_URL is set), then the build and the end-to-end
// journeys in Chromium.
// npm test -- <part> runs one part: static | unit | pg | e2e; fast (static and unit: no build and
// no browser); or quick (the unit tests and the fast API tests, for the edit-test loop: quick-tests.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { quickTestFiles } from './quick-tests.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const only = process.argv[2];
const PARTS = {
  static: ['static'],
  unit: ['unit'],
  pg: ['pg'],
  e2e: ['e2e'],
  fast: ['static', 'unit'],
  quick: ['quick'],
};
if (only && !Object.hasOwn(PARTS, only)) {
  console.error(`Unknown part "${only}": use one of ${Object.keys(PARTS).join(', ')}.`);
  process.exit(2);
}

const S3_SUITES = [
  'src/server/platform/uploads.test.ts',
  'src/server/modules/listings/routes.cover.test.ts',
  'src/server/modules/community/images.test.ts',
  'src/server/modules/ads/routes.changes.test.ts',
  'src/server/modules/ads/routes.create.test.ts',
  'src/server/modules/seo/routes.heads.test.ts',
];

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(
    `◀ ${label}: ${res.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (res.status !== 0) process.exit(res.status ?? 1);
}

/**
 * Runs commands side by side, each printing its output as one block when it ends (so the log reads
 * as if they ran in turn), and stops if any failed. For checks that each keep one core busy.
 */
async function runSideBySide(steps) {
  const started = Date.now();
  const results = await Promise.all(
    steps.map(
      ({ label, cmd, args, env = {} }) =>
        new Promise((resolve) => {
          const t0 = Date.now();
          const chunks = [];
          const child = spawn(cmd, args, { env: { ...process.env, ...env } });
          child.stdout.on('data', (c) => chunks.push(c));
          child.stderr.on('data', (c) => chunks.push(c));
          child.on('error', (err) => chunks.push(Buffer.from(`${err.message}\n`)));
          child.on('close', (status) =>
            resolve({ label, status, output: Buffer.concat(chunks), seconds: Date.now() - t0 }),
          );
        }),
    ),
  );
  for (const { label, status, output, seconds } of results) {
    console.log(`\n▶ ${label}`);
    process.stdout.write(output);
    console.log(
      `◀ ${label}: ${status === 0 ? 'ok' : 'FAILED'} in ${(seconds / 1000).toFixed(1)} s`,
    );
  }
  console.log(`(side by side: ${((Date.now() - started) / 1000).toFixed(1)} s in all)`);
  const failed = results.find((r) => r.status !== 0);
  if (failed) process.exit(failed.status ?? 1);
}

/**
 * Debian packages the later parts need and this machine lacks (Chromium for the journeys, HAProxy
 * for the deployment check), installed in the background while the checks and the unit tests run
 * (a minute or more of a clean CI machine's time); the parts that need them wait for it. Only as
 * root; otherwise each part says what to install.
 */
function installMissingPackages() {
  const wanted = [];
  if (want('e2e') && !process.env.CHROME_PATH && !existsSync('/usr/bin/chromium'))
    wanted.push('chromium');
  if (want('pg') && process.env.TEST_DATABASE_URL && spawnSync('haproxy', ['-v']).status !== 0)
    wanted.push('haproxy');
  if (!wanted.length || process.getuid?.() !== 0) return Promise.resolve();
  console.log(`Installing Debian's ${wanted.join(' and ')} in the background…`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      'sh',
      ['-c', `apt-get update -qq && apt-get install -y -qq ${wanted.join(' ')}`],
      { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: 'ignore' },
    );
    const done = (status) => {
      console.log(
        `(apt-get install ${wanted.join(' ')}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      resolve();
    };
    child.on('error', () => done(1));
    child.on('close', done);
  });
}

function ensureChromium() {
  const path = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return path;
  console.error(
    'Chromium is needed for the end-to-end tests. Install it with:\n  sudo apt-get install -y chromium\nor set CHROME_PATH to a Chromium or Chrome binary.',
  );
  process.exit(1);
}

const bin = (name) => `node_modules/.bin/${name}`;
// The whole run has every test of the quick tier in its unit part.
const want = (part) => (only ? PARTS[only].includes(part) : part !== 'quick');
const packages = installMissingPackages();

if (want('static')) {
  // Each keeps one core busy: side by side they take as long as the typecheck.
  await runSideBySide([
    { label: 'typecheck', cmd: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.json'] },
    { label: 'lint', cmd: bin('eslint'), args: ['.', '--max-warnings=0'] },
    {
      label: 'format (Prettier; what it leaves out is in .prettierignore)',
      cmd: bin('prettier'),
      args: ['--check', '.'],
    },
    // No import circles (docs/architecture.md): the count may not grow past the bound.
    {
      label: 'import circles',
      cmd: bin('tsx'),
      args: ['scripts/import-cycles.ts', '--max=0'],
    },
  ]);
}
if (want('quick'))
  run(
    'quick tests: unit tests and the fast API tests (embedded PGlite)',
    bin('vitest'),
    ['run', ...quickTestFiles()],
    { TEST_DATABASE_URL: '' },
  );
if (want('unit'))
  run('unit and API tests (embedded PGlite)', bin('vitest'), ['run'], { TEST_DATABASE_URL: '' });
if (want('unit'))
  // The upload journeys through HTTP again, with every app's uploads in an S3 bucket (a real
  // S3-protocol server on loopback, started by the test set-up); the BlobStore contract test
  // already runs both backends. Suites that seed files on disk themselves stay local-only.
  run('upload tests on S3 storage', bin('vitest'), ['run', ...S3_SUITES], {
    TEST_DATABASE_URL: '',
    TEST_STORAGE: 's3',
  });
if (want('pg') && process.env.TEST_DATABASE_URL) {
  await packages;
  // With the deployment check: deploy/haproxy.cfg in Debian's HAProxy before two instances.
  run('API tests on PostgreSQL', bin('vitest'), [
    'run',
    'src/server',
    'scripts/deploy-check.test.ts',
  ]);
}
if (want('e2e')) {
  await packages;
  const chrome = ensureChromium();
  run('build', process.execPath, ['scripts/build.mjs']);
  // No traces: CI shows the text of a failure alone (playwright.config.ts, E2E_TRACE).
  run('end-to-end tests (Chromium)', bin('playwright'), ['test'], {
    CHROME_PATH: chrome,
    E2E_TRACE: 'off',
  });
}
console.log('\nAll test suites passed.');
