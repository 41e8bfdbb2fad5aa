/**
 * Counts the import circles in the repository: `tsx scripts/import-cycles.ts [--values] [dirs...]`.
 *
 * Every import, re-export and dynamic import() between the project's own files is an edge
 * (`--values` leaves out `import type`, which vanishes at run time). A circle is reported the way
 * madge reports them: one per back edge met by a depth-first walk in file order, written as the
 * path around it. The strongly connected groups are listed too. Exits 1 above `--max=N`.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const valuesOnly = args.includes('--values');
const max = Number(args.find((a) => a.startsWith('--max='))?.slice(6) ?? Infinity);
const dirs = args.filter((a) => !a.startsWith('--'));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);

/** The project files a file imports (type-only imports unless --values). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          clause.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!(valuesOnly && typeOnly)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!(valuesOnly && node.isTypeOnly)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const out = new Set<string>();
  for (const spec of specifiers) {
    const resolved = ts.resolveModuleName(spec, file, options, ts.sys).resolvedModule;
    const target = resolved?.resolvedFileName;
    if (!target || resolved.isExternalLibraryImport || target.includes('node_modules')) continue;
    if (/\.(ts|tsx)$/.test(target) && !target.endsWith('.d.ts')) out.add(path.resolve(target));
  }
  return [...out].sort();
}

const files = (dirs.length ? dirs : ['src', 'scripts', 'e2e'])
  .flatMap((d) => sourceFiles(path.resolve(root, d)))
  .sort();
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string) => path.relative(root, f);

// The circles, madge's way: a depth-first walk that records the path at every back edge.
const circles: string[][] = [];
const done = new Set<string>();
const onPath: string[] = [];
const walk = (file: string) => {
  onPath.push(file);
  for (const next of graph.get(file) ?? []) {
    if (done.has(next)) continue;
    const at = onPath.indexOf(next);
    if (at >= 0) circles.push(onPath.slice(at));
    else walk(next);
  }
  onPath.pop();
  done.add(file);
};
for (const file of files) if (!done.has(file)) walk(file);

// The strongly connected groups (Tarjan): files that all reach each other.
const groups: string[][] = [];
{
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const connect = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const file of files) if (!indexOf.has(file)) connect(file);
}

circles.forEach((c, i) => console.log(`${i + 1}) ${c.map(rel).join(' > ')}`));
console.log(
  `\n${circles.length} import circles in ${files.length} files${valuesOnly ? ' (values only)' : ''}`,
);
console.log(`${groups.length} groups of files that import each other:`);
for (const g of groups) console.log(`  ${g.length} files: ${g.map(rel).join(', ')}`);
if (circles.length > max) process.exit(1);
