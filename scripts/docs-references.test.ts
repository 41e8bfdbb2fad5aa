import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the documentation points at exists: a reader who follows a link, or looks for the test a
 * page names as the proof of a rule, finds it.
 */

/** README.md and every page under docs/, as paths from the repository's root. */
function pages(dir = 'docs'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return pages(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
const ALL_PAGES = ['README.md', ...pages()];

/** The page's text without its fenced code blocks (a link in code is not a link). */
const prose = (page: string) => readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');

/** The relative targets of the page's Markdown links, anchors and web addresses left out. */
function relativeLinks(page: string): string[] {
  const targets = [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]);
}

describe('links in README.md and docs/', () => {
  it('lead to files that exist', () => {
    const links = ALL_PAGES.flatMap((page) =>
      relativeLinks(page).map((target) => ({ page, target })),
    );
    expect(links.length).toBeGreaterThan(200);
    const dangling = links
      .filter(({ page, target }) => !existsSync(normalize(join(dirname(page), target))))
      .map(({ page, target }) => `${page} → ${target}`);
    expect(dangling).toEqual([]);
  });

  it('docs/README.md links every topic page of docs/', () => {
    const linked = new Set(relativeLinks('docs/README.md'));
    const topics = readdirSync('docs').filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(topics.length).toBeGreaterThan(15);
    expect(topics.filter((page) => !linked.has(page))).toEqual([]);
    expect(linked.has('decisions/README.md')).toBe(true);
  });

  it('the decisions index lists every decision in its table and under a topic', () => {
    const index = readFileSync('docs/decisions/README.md', 'utf8');
    const [byTopic, table] = index.split('## All decisions');
    const decisions = readdirSync('docs/decisions').filter((f) => /^\d{4}-.*\.md$/.test(f));
    expect(decisions.length).toBeGreaterThan(80);
    expect(decisions.filter((file) => !table.includes(`](${file})`))).toEqual([]);
    expect(decisions.filter((file) => !byTopic.includes(`](${file})`))).toEqual([]);
  });
});

/**
 * A rule written down names the test that proves it: every test file a page names must exist, or
 * the page would promise a proof nobody runs. Paths are as pages write them: from the
 * repository's root, or from a folder the page makes plain (src/server/ in docs/security.md, a
 * module's or a feature's folder elsewhere); a file name alone (`routes.test.ts`) is not checked.
 */
const ROOTS = [
  '',
  'src/',
  'src/server/',
  'src/server/modules/',
  'src/server/platform/',
  'src/web/',
  'src/web/features/',
];

function namedTests(page: string): string[] {
  const text = readFileSync(page, 'utf8');
  return [...new Set([...text.matchAll(/`([\w./-]+\.(?:test|spec)\.tsx?)`/g)].map((m) => m[1]))];
}

describe('test files named in README.md and docs/', () => {
  it('docs/security.md names the tests of every defence', () => {
    expect(namedTests('docs/security.md').length).toBeGreaterThan(30);
  });

  it('exist', () => {
    const named = ALL_PAGES.flatMap((page) =>
      namedTests(page)
        .filter((path) => path.includes('/'))
        .map((path) => ({ page, path })),
    );
    expect(named.length).toBeGreaterThan(50);
    const missing = named
      .filter(({ path }) => !ROOTS.some((root) => existsSync(`${root}${path}`)))
      .map(({ page, path }) => `${page}: ${path}`);
    expect(missing).toEqual([]);
  });
});
