import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { graphCircles } from '../../../scripts/graph-circles';

// Features never import each other in a circle: a page that puts several features together is
// composed in app/ (app/pages/), which imports features and is imported by none.

const features = fileURLToPath(new URL('.', import.meta.url));
const specifier = /\b(?:from|import)\s*\(?\s*'([^']+)'/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !e.name.includes('.test.')
        ? [join(dir, e.name)]
        : [],
  );
}

/** The feature a file belongs to, or null outside src/web/features. */
function featureOf(file: string): string | null {
  const path = relative(features, file);
  return path.startsWith('..') ? null : path.split(sep)[0];
}

/** Which features each feature imports (any file of it, by a relative or `@web/` specifier). */
function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(features)) {
    const from = featureOf(file)!;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(specifier)) {
      const target = spec.startsWith('.')
        ? resolve(dirname(file), spec)
        : spec.startsWith('@web/features/')
          ? join(features, spec.slice('@web/features/'.length))
          : null;
      const to = target && featureOf(target);
      if (to && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

const circles = graphCircles;

describe('web features', () => {
  it('import each other in no circle', () => {
    const graph = featureGraph();
    expect(graph.size).toBeGreaterThan(20);
    expect(graph.get('chats')).toContain('deals');
    expect(circles(graph)).toEqual([]);
  });

  it('the check finds a circle (it can fail)', () => {
    const graph = new Map([
      ['users', new Set(['community', 'listings'])],
      ['community', new Set(['users'])],
      ['listings', new Set(['deals'])],
      ['deals', new Set(['watching'])],
      ['watching', new Set(['listings'])],
    ]);
    expect(circles(graph)).toEqual([
      'community -> users -> community',
      'deals -> watching -> listings -> deals',
    ]);
  });
});
