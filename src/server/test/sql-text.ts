/**
 * What SQL text may be built from (decision 0091): a value reaches a statement only as a
 * parameter, so the text given to `query()` (and `q()`, `tx()`) and to `sql.raw()` is built from
 * constants alone.
 *
 * Constant SQL is a literal; a variable whose initialiser and every later assignment (or push) is
 * constant; a template, `+`, `??`, `||` or `cond ? a : b` of constants (a condition only
 * chooses); any member of a constant object or array; a number (`.length`, arithmetic, `Math`);
 * `join`, `map`, `filter`... of constants; a `sql` fragment; a parameter whose type is a union of
 * literals, or whose every caller passes a constant; a call of a function of the code whose
 * returned text is constant when its arguments are. A function that only hands its caller's
 * statement on (`(text, params) => database.query(text, params)`) passes the check to its callers.
 * Anything else (a request's field, `$${n}` numbering) is a finding.
 *
 * Identifiers are resolved by TypeScript across the given files; the rest is syntax.
 */
import path from 'node:path';
import ts from 'typescript';

import { constantSql, isSqlTag, skipWrappers, type FunctionNode } from './sql-constants';

export interface Finding {
  /** `file: expression`, the key an allowance is listed under. */
  key: string;
  line: number;
  why: string;
}

const QUERY_CALLEES = new Set(['query', 'q', 'tx']);

export function checkSqlText(
  root: string,
  files: readonly string[],
  context: readonly string[] = [],
): Finding[] {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const roots = [...new Set([...files, ...context])].map((f) => path.resolve(root, f));
  const program = ts.createProgram(roots, { ...options, noResolve: true, types: [], noLib: true });
  const sources = roots.map((f) => program.getSourceFile(f)).filter((s) => !!s);
  const { constant, functionOf, nameOf, symbolOf } = constantSql(program, sources);

  /** The statement a function was handed by its caller, passed on as is: its callers are checked. */
  const handedOn = (text: ts.Expression): boolean => {
    const e = skipWrappers(text);
    const decl = ts.isIdentifier(e) ? symbolOf(e)?.valueDeclaration : undefined;
    if (decl && ts.isParameter(decl)) {
      // Anonymous, or itself a query function: what it is given is checked where it is called.
      const name = nameOf(decl.parent as FunctionNode);
      return !name || QUERY_CALLEES.has(name.name);
    }
    // `const { text, values } = statementOf(statement, params)` in a driver.
    if (decl && ts.isBindingElement(decl)) {
      const holder = decl.parent.parent;
      const init = ts.isVariableDeclaration(holder) && holder.initializer;
      return (
        !!init &&
        ts.isCallExpression(init) &&
        ts.isIdentifier(init.expression) &&
        init.expression.text === 'statementOf' &&
        handedOn(init.arguments[0])
      );
    }
    return false;
  };

  /** SQL written as text (a builder's template, a constant's): inside sql`` it would be a value. */
  const isTextSql = (node: ts.Expression): boolean => {
    const e = skipWrappers(node);
    const looksLikeSql = (t: ts.Node) =>
      (ts.isTemplateExpression(t) || ts.isNoSubstitutionTemplateLiteral(t)) &&
      /\b(select|from|where|not in|exists|join)\b/i.test(t.getText());
    if (ts.isCallExpression(e)) {
      const fn = functionOf(e.expression);
      const body = fn?.body;
      if (!body) return false;
      if (!ts.isBlock(body)) return looksLikeSql(skipWrappers(body));
      let text = false;
      const visit = (n: ts.Node) => {
        if (ts.isFunctionLike(n)) return;
        if (ts.isReturnStatement(n) && n.expression)
          text ||= looksLikeSql(skipWrappers(n.expression));
        ts.forEachChild(n, visit);
      };
      ts.forEachChild(body, visit);
      return text;
    }
    if (ts.isIdentifier(e)) {
      const decl = symbolOf(e)?.valueDeclaration;
      return (
        !!decl &&
        ts.isVariableDeclaration(decl) &&
        !!decl.initializer &&
        looksLikeSql(skipWrappers(decl.initializer))
      );
    }
    return false;
  };

  const findings: Finding[] = [];
  for (const file of files) {
    const source = program.getSourceFile(path.resolve(root, file));
    if (!source) continue;
    const report = (node: ts.Node, why: string) =>
      findings.push({
        key: `${file}: ${node.getText(source).replace(/\s+/g, ' ')}`,
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        why,
      });
    const checkText = (text: ts.Expression) => {
      let e = skipWrappers(text);
      // A driver's query config: its text.
      if (ts.isObjectLiteralExpression(e)) {
        const prop = e.properties.find(
          (p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'text',
        );
        if (!prop || !ts.isPropertyAssignment(prop)) return;
        e = skipWrappers(prop.initializer);
      }
      if (handedOn(e)) return;
      const parts = ts.isTemplateExpression(e) ? e.templateSpans.map((s) => s.expression) : [e];
      for (const part of parts)
        if (!constant(part, new Map()))
          report(
            part,
            'SQL text built from something not constant: pass it as a value (sql`${value}`)',
          );
    };
    const visit = (node: ts.Node) => {
      if (ts.isTemplateExpression(node)) {
        const texts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
        node.templateSpans.forEach((span, i) => {
          if (texts[i].endsWith('$'))
            report(
              span.expression,
              'a parameter numbered by hand: write the value in a sql`` fragment',
            );
        });
      }
      if (
        ts.isTaggedTemplateExpression(node) &&
        isSqlTag(node.tag) &&
        ts.isTemplateExpression(node.template)
      )
        for (const span of node.template.templateSpans)
          if (isTextSql(span.expression))
            report(
              span.expression,
              'SQL text given to sql`` as a value: wrap constant SQL in sql.raw()',
            );
      if (ts.isCallExpression(node) && node.arguments.length) {
        const callee = node.expression;
        const name = ts.isIdentifier(callee)
          ? callee.text
          : ts.isPropertyAccessExpression(callee)
            ? callee.name.text
            : '';
        const raw =
          ts.isPropertyAccessExpression(callee) && isSqlTag(callee.expression) && name === 'raw';
        if (raw || (QUERY_CALLEES.has(name) && (name === 'query' || ts.isIdentifier(callee))))
          checkText(node.arguments[0]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

/** The identifier names a declaration, an import or an export rather than using it. */
