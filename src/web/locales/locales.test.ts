import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { flattenKeys } from '@shared/translator';
import itCatalogue from './it.json';
import enCatalogue from './en.json';

const itKeys = new Set(flattenKeys(itCatalogue));
const enKeys = new Set(flattenKeys(enCatalogue));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.(tsx?)$/.test(e.name) && !e.name.includes('.test.')
        ? [join(dir, e.name)]
        : [],
  );
}

describe('locale catalogues', () => {
  it('have the same keys in Italian and English', () => {
    expect([...itKeys].filter((k) => !enKeys.has(k))).toEqual([]);
    expect([...enKeys].filter((k) => !itKeys.has(k))).toEqual([]);
  });

  it('have no empty texts', () => {
    const empty = (cat: Record<string, unknown>) =>
      flattenKeys(cat).filter((k) => k.split('.').reduce<any>((n, p) => n?.[p], cat) === '');
    expect(empty(itCatalogue)).toEqual([]);
    expect(empty(enCatalogue)).toEqual([]);
  });

  it('contain every literal key the code asks for', () => {
    const missing: string[] = [];
    const files = [...sources('src/web'), ...sources('src/shared'), ...sources('src/server')];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // t('a.b'), i18n.t('a.b'), and 'validation.x' / 'errors.x' message keys in schemas and routes.
      const patterns = [/\bt\(\s*'([a-zA-Z0-9_.]+)'/g, /'((?:validation|errors)\.[a-zA-Z0-9_]+)'/g];
      for (const re of patterns) {
        for (const m of text.matchAll(re)) {
          const key = m[1];
          if (!key.includes('.') || key.endsWith('.')) continue;
          if (!itKeys.has(key) || !enKeys.has(key)) missing.push(`${file}: ${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
