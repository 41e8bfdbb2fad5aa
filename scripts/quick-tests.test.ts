import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QUICK_API_TESTS, buildsAppOrProcess, quickTestFiles, testFiles } from './quick-tests.mjs';

describe('the quick tier (npm test -- quick)', () => {
  it('lists API tests that exist and build an app (a unit test is quick without a listing)', () => {
    expect(QUICK_API_TESTS.filter((path) => !existsSync(path))).toEqual([]);
    expect(QUICK_API_TESTS.filter((path) => !buildsAppOrProcess(path))).toEqual([]);
    expect(new Set(QUICK_API_TESTS).size).toBe(QUICK_API_TESTS.length);
  });

  it('takes every unit test and leaves out the tests that build apps unless listed', () => {
    const quick = new Set(quickTestFiles());
    const server = ['src/shared', 'src/server', 'scripts'].flatMap((dir) => testFiles(dir));
    const unit = server.filter((path) => !buildsAppOrProcess(path));
    expect(unit).toContain('src/shared/money.test.ts');
    expect(unit).toContain('scripts/quick-tests.test.ts');
    expect(unit.filter((path) => !quick.has(path))).toEqual([]);
    // The seed, the garbage pass and the processes' tests are the full run's.
    for (const slow of [
      'scripts/seed/seed.test.ts',
      'src/server/test/garbage.test.ts',
      'scripts/backup.test.ts',
      'src/server/modules/deals/locked-books.test.ts',
    ])
      expect(quick.has(slow), slow).toBe(false);
    expect(quick.has('src/web/')).toBe(true);
  });
});
