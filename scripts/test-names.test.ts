import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Test helpers are named one way (docs/architecture.md, Tests): the server's shared harness in
 * src/server/test/<topic>.ts, a helper beside the tests that share it as <topic>.fixture.ts, the
 * journeys' helpers in e2e/<topic>.ts (e2e/fixtures.ts being Playwright's test objects).
 */

const CODE = /\.(ts|tsx|mts|mjs)$/;

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(path);
    return CODE.test(entry.name) ? [path] : [];
  });
}
const FILES = ['src', 'scripts', 'e2e'].flatMap(codeFiles);
const isTest = (path: string) => /\.(test\.tsx?|spec\.ts)$/.test(path);

describe('test helpers', () => {
  it('are never called "support" or "helpers"', () => {
    expect(FILES.filter((path) => /support|helper/i.test(path))).toEqual([]);
  });

  it('named as fixtures are <topic>.fixture.ts, beside the tests that share them', () => {
    const fixtures = FILES.filter((path) => /fixture/i.test(path));
    expect(fixtures.length).toBeGreaterThan(10);
    expect(
      fixtures.filter((path) => !/\.fixture\.tsx?$/.test(path) && path !== 'e2e/fixtures.ts'),
    ).toEqual([]);
  });

  it('that import Vitest live in src/server/test/ or are fixtures', () => {
    const helpers = FILES.filter(
      (path) =>
        path.startsWith('src/') &&
        !isTest(path) &&
        /from ['"]vitest['"]/.test(readFileSync(path, 'utf8')),
    );
    expect(helpers.length).toBeGreaterThan(10);
    expect(
      helpers.filter(
        (path) => !path.startsWith('src/server/test/') && !/\.fixture\.tsx?$/.test(path),
      ),
    ).toEqual([]);
  });
});
