/**
 * Which top-level locale keys a part of the web app uses, read from the sources: used by
 * vite.config.ts (the routes and their locale groups, for the boot script) and by
 * src/web/lib/localeGroups.test.ts (every text a page or the shell can show is in a group it has).
 * Plain regular expressions over the sources, no compiler: imports are `from '…'`, `import '…'`
 * and `import('…')` with a literal specifier; a text key is any quoted string naming an existing
 * key (`'nav.home'`, passed to t() or kept in data such as navLinks.ts) or the literal head of a
 * template (`` `community.postTypes.${type}` `` counts as `community`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface RouteEntry {
  /** The route's path as written ('' for an index route). */
  path: string;
  index: boolean;
  /** The page module's specifier, relative to src/web/app ('../features/home/HomePage'). */
  module: string;
  /** The lazy locale groups named by `page(load, groups)`, or undefined when none are named. */
  groups: string[] | undefined;
  /** True for the children of /profile/:userId (privateAreaRoutes). */
  privateArea: boolean;
}

const routeEntry =
  /(index: true|path: '([^']*)'),\s*\.\.\.page\(\s*\(\)\s*=>\s*import\('([^']+)'\)\s*(?:,\s*(\[[^\]]*\]|[A-Z_]+)\s*)?,?\s*\)/g;

/**
 * The routes of app/router.tsx with their page modules and locale groups. A group list is a
 * literal array of strings or a constant of that file (`const X: readonly LocaleGroup[] = [...]`,
 * spreads of other such constants allowed).
 */
export function readRouteTable(source: string): RouteEntry[] {
  const constants = new Map<string, string[]>();
  const listOf = (text: string): string[] =>
    text
      .replace(/^\[|\]$/g, '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .flatMap((part) => {
        if (part.startsWith('...')) {
          const name = part.slice(3);
          const known = constants.get(name);
          if (!known) throw new Error(`router.tsx: unknown locale group list ${name}`);
          return known;
        }
        const literal = /^'([^']+)'$/.exec(part);
        if (!literal) throw new Error(`router.tsx: cannot read locale group ${part}`);
        return [literal[1]];
      });
  for (const [, name, list] of source.matchAll(
    /const ([A-Z_]+): readonly LocaleGroup\[\] = (\[[^\]]*\]);/g,
  ))
    constants.set(name, listOf(list));
  const privateStart = source.indexOf('export const privateAreaRoutes');
  const routesStart = source.indexOf('export const routes');
  const entries: RouteEntry[] = [];
  for (const match of source.matchAll(routeEntry)) {
    const [, kind, path, module, groups] = match;
    const at = match.index ?? 0;
    let named: string[] | undefined;
    if (groups !== undefined) {
      if (groups.startsWith('[')) named = listOf(groups);
      else {
        named = constants.get(groups);
        if (!named) throw new Error(`router.tsx: unknown locale group list ${groups}`);
      }
    }
    entries.push({
      path: kind === 'index: true' ? '' : path,
      index: kind === 'index: true',
      module,
      groups: named,
      privateArea: privateStart >= 0 && at > privateStart && (routesStart < 0 || at < routesStart),
    });
  }
  return entries;
}

/** A module's file, or undefined for a package, a stylesheet or anything else not ours. */
export function resolveModule(
  specifier: string,
  importer: string,
  sharedDir: string,
): string | undefined {
  let base: string;
  if (specifier.startsWith('.')) base = resolve(dirname(importer), specifier);
  else if (specifier.startsWith('@shared/')) base = resolve(sharedDir, specifier.slice(8));
  else return undefined;
  const candidates = /\.tsx?$/.test(base)
    ? [base]
    : [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/** Names a module is imported for; `all` when unknown (a default or namespace import). */
type Wanted = 'all' | ReadonlySet<string>;

const staticStatement = /\b(import|export)\s+(type\s+)?([\w$*\s{},]*?)\s*from\s*['"]([^'"]+)['"]/g;
const bareImport = /\bimport\s*['"]([^'"]+)['"]/g;
const dynamicImport = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const withGroups =
  /\bwithLocaleGroups\(\s*\[([^\]]*)\]\s*,\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** `{ a, b as c, type D }` -> the exported names a, b (types bring no code); undefined: `all`. */
function namesOf(clause: string, kind: 'import' | 'export'): string[] | undefined {
  const braces = /\{([^}]*)\}/.exec(clause);
  const outside = clause
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  if (!braces || outside) return kind === 'export' && outside === '' ? [] : undefined;
  return braces[1]
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item && !item.startsWith('type '))
    .map((item) => item.split(/\s+as\s+/)[kind === 'import' ? 0 : 1] ?? item.split(/\s+as\s+/)[0]);
}

export interface Reached {
  file: string;
  /** Lazy locale groups loaded together with the dynamic import that led here. */
  groups: ReadonlySet<string>;
}

/**
 * Every source file reached from `entries` through static and dynamic imports (following only
 * the re-exports of a barrel that are imported, as the build does), not entering the files in
 * `stop` (other pages: they bring their own texts). A module loaded with
 * `withLocaleGroups(['x'], () => import('./y'))` (lib/i18n.ts) is reached with those groups.
 */
export function moduleGraph(
  entries: readonly string[],
  sharedDir: string,
  stop: ReadonlySet<string> = new Set(),
): Reached[] {
  const done = new Map<string, Wanted>();
  const reached = new Map<string, Reached>();
  const queue: Array<{ file: string; wanted: Wanted; groups: ReadonlySet<string> }> = entries.map(
    (file) => ({ file, wanted: 'all', groups: new Set<string>() }),
  );
  while (queue.length) {
    const { file, wanted, groups } = queue.pop()!;
    const key = `${file}|${[...groups].sort().join(',')}`;
    const before = done.get(key);
    if (before === 'all') continue;
    if (before && wanted !== 'all' && [...wanted].every((n) => before.has(n))) continue;
    // A module reached again for more names is read again for all of them.
    const now: Wanted = wanted === 'all' ? 'all' : new Set([...(before ?? []), ...wanted]);
    done.set(key, now);
    reached.set(key, { file, groups });
    const text = readFileSync(file, 'utf8');
    const follow = (specifier: string, next: Wanted, nextGroups: ReadonlySet<string>) => {
      const target = resolveModule(specifier, file, sharedDir);
      if (target && !stop.has(target))
        queue.push({ file: target, wanted: next, groups: nextGroups });
    };
    for (const [, kind, typeOnly, clause, specifier] of text.matchAll(staticStatement)) {
      if (typeOnly) continue;
      const names = namesOf(clause, kind as 'import' | 'export');
      if (kind === 'export') {
        // A re-export matters only for the names the importer wants (`export *`: all of them).
        const exported = names ?? [];
        const all = clause.trim().startsWith('*');
        if (!all && now !== 'all' && !exported.some((n) => now.has(n))) continue;
        if (!all && names !== undefined && names.length === 0) continue;
      } else if (names !== undefined && names.length === 0) continue;
      follow(specifier, names === undefined || kind === 'export' ? 'all' : new Set(names), groups);
    }
    for (const [, specifier] of text.matchAll(bareImport)) follow(specifier, 'all', groups);
    // `withLocaleGroups(['x'], () => import('./y'))`: y and what it imports have group x.
    const lazyGroups = new Map<string, string[]>();
    for (const [, list, specifier] of text.matchAll(withGroups))
      lazyGroups.set(
        specifier,
        [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]),
      );
    for (const [, specifier] of text.matchAll(dynamicImport)) {
      const extra = lazyGroups.get(specifier);
      follow(specifier, 'all', extra ? new Set([...groups, ...extra]) : groups);
    }
  }
  return [...reached.values()];
}

type Catalogue = Record<string, unknown>;

const isObject = (v: unknown): v is Catalogue => typeof v === 'object' && v !== null;

/** Whether `path` names a text or a branch of the catalogue (plural and context forms count). */
function names(catalogue: Catalogue, path: string): boolean {
  const parts = path.split('.');
  let node: unknown = catalogue;
  for (let i = 0; i < parts.length; i++) {
    if (!isObject(node)) return false;
    const part = parts[i];
    if (part in node) {
      node = node[part];
      continue;
    }
    // The last part may be the stem of `key_one`, `key_other`, `key_context`.
    return i === parts.length - 1 && Object.keys(node).some((k) => k.startsWith(`${part}_`));
  }
  return true;
}

const quoted = /(['"`])([A-Za-z][\w]*(?:\.[\w-]+)*\.?)(\1|\$\{)/g;

/** The top-level catalogue keys whose texts a source file names. */
export function localeKeysIn(text: string, catalogue: Catalogue): Set<string> {
  const used = new Set<string>();
  for (const [, , candidate, end] of text.matchAll(quoted)) {
    const top = candidate.split('.')[0];
    if (!(top in catalogue) || !isObject(catalogue[top])) continue;
    if (end === '${') {
      // A template's literal head: `top.branch.${…}`.
      if (names(catalogue, candidate.replace(/\.$/, ''))) used.add(top);
    } else if (candidate.includes('.') && !candidate.endsWith('.') && names(catalogue, candidate))
      used.add(top);
  }
  return used;
}

/** The top-level keys used by a set of files, each with the files that use it. */
export function localeKeysOf(files: Iterable<string>, catalogue: Catalogue): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of files) {
    for (const key of localeKeysIn(readFileSync(file, 'utf8'), catalogue)) {
      used.set(key, [...(used.get(key) ?? []), file]);
    }
  }
  return used;
}
