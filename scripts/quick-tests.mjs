// The quick tier, `npm test -- quick`: the unit tests and the fastest API tests, for the edit-test loop.
// - Every unit test: the web app's, and those of src/shared, src/server and scripts/ that build no
//   app and start no process. A test builds an app when it imports the test harness
//   (src/server/test/, or a `*.fixture.ts` beside it, which does) and starts processes when it
//   imports node:child_process. A new unit test is quick by this rule alone.
// - The API tests of QUICK_API_TESTS: each builds an app on the embedded database and answers in a
//   few seconds (the fastest fifth of them, measured in a full run). A new API test is not quick
//   until someone lists it here; quick-tests.test.ts checks every entry is an API test that exists.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const QUICK_API_TESTS = [
  'src/server/db/schema.test.ts',
  'src/server/modules/ads/genres.test.ts',
  'src/server/modules/ads/routes.changes.test.ts',
  'src/server/modules/ads/routes.serving.test.ts',
  'src/server/modules/blocks/presence.test.ts',
  'src/server/modules/community/images.test.ts',
  'src/server/modules/community/socket.test.ts',
  'src/server/modules/contact/routes.test.ts',
  'src/server/modules/library/routes.shelves.test.ts',
  'src/server/modules/listings/amounts.test.ts',
  'src/server/modules/listings/routes.cover.test.ts',
  'src/server/modules/profiles/routes.avatar.test.ts',
  'src/server/modules/profiles/routes.me.test.ts',
  'src/server/modules/profiles/routes.session.test.ts',
  'src/server/modules/seo/routes.pages.test.ts',
  'src/server/modules/seo/routes.sitemaps.test.ts',
  'src/server/modules/stats/routes.test.ts',
  'src/server/modules/users/routes.test.ts',
  'src/server/platform/auth/surface.test.ts',
  'src/server/platform/csrf.test.ts',
  'src/server/platform/listing-changes.test.ts',
  'src/server/platform/rate-limits-store.test.ts',
  'src/server/platform/security-headers.test.ts',
  'src/server/platform/spa/template.test.ts',
  'src/server/platform/text-input.test.ts',
  'src/server/platform/uploads.test.ts',
];

const TEST_FILE = /\.test\.tsx?$/;

/** Every test file under `dir`, as a path from the repository's root. */
export function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/** The modules a file imports, as written (static and dynamic imports, re-exports). */
export function importsOf(path) {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

/** A test that builds an app (imports the harness) or starts a process. */
export function buildsAppOrProcess(path) {
  if (path.startsWith('src/server/test/')) return true;
  return importsOf(path).some(
    (spec) =>
      spec.includes('/test/') ||
      /\.fixture(\.tsx?)?$/.test(spec) ||
      spec === 'node:child_process' ||
      spec === 'child_process',
  );
}

/** The files (and folders) `vitest run` is given for the quick tier. */
export function quickTestFiles() {
  const unit = ['src/shared', 'src/server', 'scripts']
    .flatMap((dir) => testFiles(dir))
    .filter((path) => !buildsAppOrProcess(path));
  return ['src/web/', ...unit, ...QUICK_API_TESTS];
}
