import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The bound the lint step puts on import circles (`import-cycles.ts --max=0` in `npm run lint`
// and `npm test -- static`) fails the step once a circle appears: two files that import each
// other are counted, and the script exits 1 above the bound.
const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
writeFileSync(
  path.join(dir, 'b.ts'),
  "import type { a } from './a';\nexport const b = 1 as unknown as typeof a;\n",
);
writeFileSync(path.join(dir, 'c.ts'), "import { b } from './b';\nexport const c = b;\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import-cycles.ts', ...args, dir], {
    cwd: root,
    encoding: 'utf8',
  });

describe('import-cycles.ts', () => {
  it('counts a circle and fails above --max', () => {
    const over = count('--max=0');
    expect(over.stdout).toContain('1 import circles in 3 files');
    expect(over.status).toBe(1);
    expect(count('--max=1').status).toBe(0);
  }, 180_000);

  it('leaves type-only imports out with --values', () => {
    const values = count('--values', '--max=0');
    expect(values.stdout).toContain('0 import circles in 3 files (values only)');
    expect(values.status).toBe(0);
  }, 180_000);
});
