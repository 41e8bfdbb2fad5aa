/**
 * Whether an expression of the server's code is constant SQL text (see sql-text.ts): the
 * analysis behind the check on what SQL text may be built from (decision 0091).
 */
import ts from 'typescript';

const ARRAY_KEEPS = new Set(['filter', 'slice', 'concat', 'reverse', 'flat', 'sort', 'at']);
const TEXT_METHODS = new Set([
  'join',
  'replace',
  'replaceAll',
  'trim',
  'toLowerCase',
  'toUpperCase',
]);
const MUTATORS = new Set(['push', 'unshift', 'splice']);

export type Env = Map<ts.Symbol, boolean>;
export type FunctionNode = ts.SignatureDeclaration & { body?: ts.ConciseBody };

/** The constant-SQL analysis over a program's files. */
export function constantSql(program: ts.Program, sources: readonly ts.SourceFile[]) {
  const checker = program.getTypeChecker();
  const memo = new Map<ts.Node, boolean>();
  const inProgress = new Set<ts.Node>();

  const symbols = new Map<ts.Node, ts.Symbol | undefined>();
  const symbolOf = (node: ts.Node): ts.Symbol | undefined => {
    if (symbols.has(node)) return symbols.get(node);
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    symbols.set(node, symbol);
    return symbol;
  };

  // Identifiers by name, across every file: writes to variables, calls of functions.
  const byName = new Map<string, ts.Identifier[]>();
  for (const source of sources) {
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node)) byName.set(node.text, [...(byName.get(node.text) ?? []), node]);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  /** The file a declaration is referenced from when it is not exported (a local, a module's own). */
  const homeOf = (decl: ts.Declaration): ts.SourceFile | undefined => {
    if (!ts.isVariableDeclaration(decl) && !ts.isFunctionDeclaration(decl) && !ts.isParameter(decl))
      return undefined;
    const file = decl.getSourceFile();
    const statement = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
    if (statement.parent !== file) return file;
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return undefined;
    const name = (decl as ts.NamedDeclaration).name;
    const reExported = (byName.get(name?.getText(file) ?? '') ?? []).some(
      (id) => id.getSourceFile() === file && ts.isExportSpecifier(id.parent),
    );
    return reExported ? undefined : file;
  };

  const referencesOf = (symbol: ts.Symbol): ts.Identifier[] => {
    const decl = symbol.valueDeclaration;
    // What is not exported is referenced in its own file only.
    const file = decl && homeOf(decl);
    return (byName.get(symbol.name) ?? []).filter(
      (id) => (!file || id.getSourceFile() === file) && symbolOf(id) === symbol,
    );
  };

  /** The values written to a variable after its declaration: assignments and pushes. */
  const writesOf = (symbol: ts.Symbol): ts.Expression[] =>
    referencesOf(symbol).flatMap((id) => {
      const access = id.parent;
      if (
        ts.isPropertyAccessExpression(access) &&
        access.expression === id &&
        MUTATORS.has(access.name.text) &&
        ts.isCallExpression(access.parent) &&
        access.parent.expression === access
      )
        return [...access.parent.arguments];
      let target: ts.Node = id;
      while (
        (ts.isPropertyAccessExpression(target.parent) ||
          ts.isElementAccessExpression(target.parent)) &&
        target.parent.expression === target
      )
        target = target.parent;
      const parent = target.parent;
      if (
        ts.isBinaryExpression(parent) &&
        parent.left === target &&
        parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment
      )
        return [parent.right];
      return [];
    });

  const functionOf = (callee: ts.Expression): FunctionNode | undefined => {
    const e = skipWrappers(callee);
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return e;
    const decl = symbolOf(ts.isPropertyAccessExpression(e) ? e.name : e)?.valueDeclaration;
    if (!decl) return undefined;
    if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) return decl;
    const init =
      (ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl)) && decl.initializer
        ? skipWrappers(decl.initializer)
        : undefined;
    return init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
  };

  /** The symbol a function is called by: its declaration's name, or the variable holding it. */
  const nameOf = (fn: FunctionNode): ts.Symbol | undefined => {
    if (fn.name) return symbolOf(fn.name);
    const holder = fn.parent;
    if (
      (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder)) &&
      holder.initializer === fn
    )
      return symbolOf(holder.name);
    return undefined;
  };

  /** Every call of the function passes a constant in its parameter `index`; false if it escapes. */
  const callersPassConstants = (fn: FunctionNode, index: number): boolean => {
    const name = nameOf(fn);
    if (!name) return false;
    const refs = referencesOf(name).filter((id) => !declares(id));
    if (!refs.length) return false;
    return refs.every((id) => {
      let callee: ts.Node = id;
      if (ts.isPropertyAccessExpression(id.parent) && id.parent.name === id) callee = id.parent;
      const call = callee.parent;
      if (!ts.isCallExpression(call) || call.expression !== callee) return false;
      const rest = fn.parameters[index]?.dotDotDotToken;
      const given = rest ? call.arguments.slice(index) : call.arguments.slice(index, index + 1);
      const param = fn.parameters[index];
      const values = given.length ? given : param?.initializer ? [param.initializer] : [];
      return values.every((a) => constant(a, new Map()));
    });
  };

  const parameterConstant = (param: ts.ParameterDeclaration): boolean => {
    if (literalType(param.type)) return true;
    if (memo.has(param)) return memo.get(param)!;
    if (inProgress.has(param)) return true;
    inProgress.add(param);
    const fn = param.parent as FunctionNode;
    const ok = callersPassConstants(fn, fn.parameters.indexOf(param));
    inProgress.delete(param);
    memo.set(param, ok);
    return ok;
  };

  const variableConstant = (decl: ts.VariableDeclaration, env: Env): boolean => {
    // A module's constants are constant once and for all; a function's locals under its env.
    const topLevel = ts.isSourceFile(decl.parent.parent.parent);
    if (topLevel && memo.has(decl)) return memo.get(decl)!;
    if (inProgress.has(decl)) return true;
    inProgress.add(decl);
    const loop = decl.parent.parent;
    const from =
      ts.isForOfStatement(loop) || ts.isForInStatement(loop) ? loop.expression : decl.initializer;
    const symbol = ts.isIdentifier(decl.name) ? symbolOf(decl.name) : undefined;
    const ok =
      (from ? constant(from, env) : true) &&
      (!symbol || writesOf(symbol).every((w) => constant(w, env)));
    inProgress.delete(decl);
    if (topLevel) memo.set(decl, ok);
    return ok;
  };

  const declarationConstant = (decl: ts.Declaration, env: Env): boolean => {
    if (ts.isVariableDeclaration(decl)) return variableConstant(decl, env);
    if (ts.isParameter(decl)) return parameterConstant(decl);
    if (ts.isBindingElement(decl)) {
      // A part of a destructured constant is constant.
      let holder: ts.Node = decl.parent;
      while (
        ts.isBindingElement(holder) ||
        ts.isObjectBindingPattern(holder) ||
        ts.isArrayBindingPattern(holder)
      )
        holder = holder.parent;
      if (ts.isVariableDeclaration(holder)) return variableConstant(holder, env);
      if (ts.isParameter(holder)) {
        const symbol = symbolOf(holder.name);
        return (symbol && env.get(symbol)) || parameterConstant(holder);
      }
      return false;
    }
    return ts.isEnumMember(decl) || ts.isFunctionDeclaration(decl);
  };

  /** Every text a function returns is constant under `env`. */
  const returnsConstant = (fn: FunctionNode, env: Env): boolean => {
    const body = fn.body;
    if (!body) return false;
    if (inProgress.has(fn)) return true;
    inProgress.add(fn);
    try {
      if (!ts.isBlock(body)) return constant(body, env);
      let ok = true;
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node)) return;
        if (ts.isReturnStatement(node) && node.expression) ok &&= constant(node.expression, env);
        ts.forEachChild(node, visit);
      };
      ts.forEachChild(body, visit);
      return ok;
    } finally {
      inProgress.delete(fn);
    }
  };

  /** A call of a function of the code, its parameters bound to what they are given. */
  const constantCall = (fn: FunctionNode, args: readonly ts.Expression[], env: Env): boolean => {
    const bound: Env = new Map(env);
    fn.parameters.forEach((p, i) => {
      const given = p.dotDotDotToken ? args.slice(i) : args[i] ? [args[i]] : [];
      const values = !given.length && p.initializer ? [p.initializer] : given;
      const ok = values.every((a) => constant(a, env));
      const bind = (name: ts.BindingName) => {
        if (ts.isIdentifier(name)) {
          const symbol = symbolOf(name);
          if (symbol) bound.set(symbol, ok);
        } else
          for (const element of name.elements)
            if (!ts.isOmittedExpression(element)) bind(element.name);
      };
      bind(p.name);
    });
    return returnsConstant(fn, bound);
  };

  function constant(node: ts.Expression, env: Env): boolean {
    const e = skipWrappers(node);
    if (
      ts.isStringLiteral(e) ||
      ts.isNoSubstitutionTemplateLiteral(e) ||
      ts.isNumericLiteral(e) ||
      e.kind === ts.SyntaxKind.TrueKeyword ||
      e.kind === ts.SyntaxKind.FalseKeyword ||
      e.kind === ts.SyntaxKind.NullKeyword ||
      // Functions are not text; what they return is checked where they are called.
      ts.isArrowFunction(e) ||
      ts.isFunctionExpression(e)
    )
      return true;
    if (ts.isTemplateExpression(e))
      return e.templateSpans.every((s) => constant(s.expression, env));
    if (ts.isConditionalExpression(e))
      return constant(e.whenTrue, env) && constant(e.whenFalse, env);
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (
        op === ts.SyntaxKind.PlusToken ||
        op === ts.SyntaxKind.QuestionQuestionToken ||
        op === ts.SyntaxKind.BarBarToken ||
        op === ts.SyntaxKind.AmpersandAmpersandToken ||
        op === ts.SyntaxKind.CommaToken ||
        (op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment)
      )
        return constant(e.right, env) && (op === ts.SyntaxKind.CommaToken || constant(e.left, env));
      // Arithmetic and comparisons give numbers and booleans.
      return true;
    }
    if (ts.isPrefixUnaryExpression(e) || ts.isPostfixUnaryExpression(e)) return true;
    if (ts.isArrayLiteralExpression(e))
      return e.elements.every((x) => constant(ts.isSpreadElement(x) ? x.expression : x, env));
    if (ts.isObjectLiteralExpression(e))
      return e.properties.every((p) =>
        ts.isPropertyAssignment(p)
          ? constant(p.initializer, env)
          : ts.isShorthandPropertyAssignment(p)
            ? constant(p.name, env)
            : ts.isSpreadAssignment(p)
              ? constant(p.expression, env)
              : ts.isMethodDeclaration(p),
      );
    if (ts.isTaggedTemplateExpression(e)) {
      if (isSqlTag(e.tag)) return true;
      // sqlText: constant SQL around expressions that must be constant too (or fragments).
      const tag = skipWrappers(e.tag);
      return (
        ts.isIdentifier(tag) &&
        tag.text === 'sqlText' &&
        (ts.isNoSubstitutionTemplateLiteral(e.template) ||
          e.template.templateSpans.every((s) => constant(s.expression, env)))
      );
    }
    if (ts.isPropertyAccessExpression(e)) {
      if (e.name.text === 'length') return true;
      if (isSqlTag(e.expression)) return e.name.text === 'empty';
      return constant(e.expression, env);
    }
    if (ts.isElementAccessExpression(e)) return constant(e.expression, env);
    if (ts.isIdentifier(e)) {
      if (e.text === 'undefined') return true;
      const symbol = symbolOf(e);
      if (!symbol) return false;
      if (env.has(symbol)) return env.get(symbol)!;
      const decl = symbol.valueDeclaration;
      return !!decl && declarationConstant(decl, env);
    }
    if (ts.isCallExpression(e)) return constantCallExpression(e, env);
    return false;
  }

  function constantCallExpression(e: ts.CallExpression, env: Env): boolean {
    const callee = skipWrappers(e.expression);
    const args = e.arguments;
    if (ts.isPropertyAccessExpression(callee)) {
      const method = callee.name.text;
      const receiver = callee.expression;
      if (isSqlTag(receiver)) {
        // sql.raw's text must be constant; sql.join's items are values or fragments.
        if (method === 'raw') return args.every((a) => constant(a, env));
        return method === 'join' || method === 'identifier';
      }
      // Numbers cannot carry SQL.
      if (ts.isIdentifier(receiver) && receiver.text === 'Math') return true;
      if (method === 'toFixed') return true;
      if (method === 'map' || method === 'flatMap') {
        const fn = args[0] && skipWrappers(args[0]);
        if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return false;
        const bound: Env = new Map(env);
        fn.parameters.forEach((p, i) => {
          const symbol = symbolOf(p.name);
          if (symbol) bound.set(symbol, i === 0 ? constant(receiver, env) : true);
        });
        return returnsConstant(fn, bound);
      }
      if (ARRAY_KEEPS.has(method) || TEXT_METHODS.has(method)) {
        // filter and sort take functions: they keep the receiver's items.
        const argsOk =
          method === 'filter' || method === 'sort' || args.every((a) => constant(a, env));
        if (argsOk && constant(receiver, env)) return true;
      }
    }
    if (ts.isIdentifier(callee) && callee.text === 'Number') return true;
    if (ts.isIdentifier(callee) && callee.text === 'String')
      return args.every((a) => constant(a, env));
    const fn = functionOf(callee);
    return !!fn && constantCall(fn, args, env);
  }

  return { constant, functionOf, nameOf, symbolOf };
}

export function declares(id: ts.Identifier): boolean {
  const parent = id.parent;
  return (
    ts.isImportSpecifier(parent) ||
    ts.isImportClause(parent) ||
    ts.isExportSpecifier(parent) ||
    ts.isNamespaceImport(parent) ||
    ((ts.isVariableDeclaration(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isMethodDeclaration(parent)) &&
      parent.name === id)
  );
}

export function isSqlTag(node: ts.Expression): boolean {
  const e = skipWrappers(node);
  return ts.isIdentifier(e) && e.text === 'sql';
}

/** A type that admits only literals: `'a' | 'b'`, `1 | 2`, `true`. */
export function literalType(type: ts.TypeNode | undefined): boolean {
  if (!type) return false;
  if (ts.isLiteralTypeNode(type)) return true;
  if (ts.isUnionTypeNode(type)) return type.types.every(literalType);
  if (ts.isParenthesizedTypeNode(type)) return literalType(type.type);
  return type.kind === ts.SyntaxKind.BooleanKeyword || type.kind === ts.SyntaxKind.NumberKeyword;
}

export function skipWrappers(node: ts.Expression): ts.Expression {
  let e = node;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e) ||
    ts.isAwaitExpression(e)
  )
    e = e.expression;
  return e;
}
