import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { graphCircles } from '../../../scripts/graph-circles';

// Server modules never import each other in a circle (docs/architecture.md): what follows another
// module's change subscribes to it in the platform (platform/changes.ts, listing-changes.ts)
// instead of being called, and offers are the deals' (deals/offers). Tests and their fixtures,
// which drive several modules over HTTP, are left out.

const modules = fileURLToPath(new URL('.', import.meta.url));
const specifier = /\b(?:from|import)\s*\(?\s*'([^']+)'/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.ts$/.test(e.name) && !/\.(test|fixture)\.ts$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/** The module a file belongs to, or null outside src/server/modules (or modules/index.ts). */
function moduleOf(file: string): string | null {
  const parts = relative(modules, file).split(sep);
  if (parts[0] === '..' || parts[0] === '') return null;
  return parts.length === 1 && /^index(\.ts)?$/.test(parts[0]) ? null : parts[0];
}

/** Which modules each module imports (any file of it, by a relative specifier). */
function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(modules)) {
    const from = moduleOf(file);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(specifier)) {
      const to = spec.startsWith('.') ? moduleOf(resolve(dirname(file), spec)) : null;
      if (to && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

const circles = graphCircles;

describe('server modules', () => {
  it('import each other in no circle', () => {
    const graph = moduleGraph();
    expect(graph.size).toBeGreaterThan(20);
    expect(graph.get('payments')).toContain('deals');
    expect(graph.get('deals')).toContain('chats');
    expect(circles(graph)).toEqual([]);
  });

  it('the check finds a circle (it can fail)', () => {
    const graph = new Map([
      ['chats', new Set(['deals', 'profiles'])],
      ['deals', new Set(['chats', 'payments'])],
      ['payments', new Set(['deals'])],
    ]);
    expect(circles(graph)).toEqual(['chats -> deals -> chats', 'deals -> payments -> deals']);
  });
});
