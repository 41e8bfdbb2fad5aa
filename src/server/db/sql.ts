/**
 * One way to write a statement with values: the `sql` tag. Every `${value}` becomes a parameter
 * numbered in order ($1, $2, ...); a nested `sql` fragment is spliced in with its own values
 * renumbered, so fragments compose without anyone counting parameters (decision 0091).
 *
 *   const mine = sql`p.author_id = ${userId}`;
 *   await query(sql`select id from community_posts p where ${mine} limit ${limit}`);
 *
 * SQL text itself enters only through the tag's literal parts, `sql.raw()` (constant SQL, vetted
 * by `sql-text.test.ts`) and `sql.identifier()` (a quoted name).
 */

/** PostgreSQL's wire protocol numbers parameters with 16 bits. */
export const MAX_PARAMETERS = 65535;

const HAND_NUMBERED = /\$\d/;

export class Sql {
  /** The literal SQL around the values: always one more than the values. */
  readonly parts: readonly string[];
  readonly values: readonly unknown[];

  constructor(parts: readonly string[], values: readonly unknown[]) {
    const merged: string[] = [parts[0]];
    const flat: unknown[] = [];
    values.forEach((value, i) => {
      if (value instanceof Sql) {
        merged[merged.length - 1] += value.parts[0];
        flat.push(...value.values);
        merged.push(...value.parts.slice(1));
        merged[merged.length - 1] += parts[i + 1];
      } else {
        flat.push(value);
        merged.push(parts[i + 1]);
      }
    });
    this.parts = merged;
    this.values = flat;
  }

  /** The statement's text, parameters numbered $1..$n in the order of `values`. */
  get text(): string {
    if (this.values.length > MAX_PARAMETERS)
      throw new RangeError(
        `A statement takes at most ${MAX_PARAMETERS} parameters (${this.values.length}): pass a list as one array parameter`,
      );
    return this.parts.reduce((text, part, i) => `${text}$${i}${part}`);
  }
}

function checkLiteral(text: string): string {
  if (HAND_NUMBERED.test(text))
    throw new TypeError(`Write values as \${value}, not as a numbered parameter: ${text.trim()}`);
  return text;
}

function tag(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings.map(checkLiteral), values);
}

/** An empty fragment: a condition or clause that is absent. */
const empty = new Sql([''], []);

/**
 * Constant SQL text, never a value: a column list, a shared condition, a keyword chosen by a
 * flag. Its argument is vetted by `sql-text.test.ts` (built only from constants).
 */
function raw(text: string): Sql {
  return new Sql([checkLiteral(text)], []);
}

/** A quoted identifier (a table or column name from the code, never from a request). */
function identifier(name: string): Sql {
  return new Sql([`"${name.replace(/"/g, '""')}"`], []);
}

/**
 * The items joined by `separator` (a comma by default); an item that is not a fragment becomes a
 * parameter. No items give the empty fragment: for a list of values write `= any(${array})`.
 */
function join(items: readonly unknown[], separator: Sql | string = ', '): Sql {
  if (items.length === 0) return empty;
  const glue = separator instanceof Sql ? separator : raw(separator);
  const parts = [''];
  const values: unknown[] = [];
  items.forEach((item, i) => {
    if (i > 0) {
      values.push(glue);
      parts.push('');
    }
    values.push(item);
    parts.push('');
  });
  return new Sql(parts, values);
}

type SqlTag = typeof tag & {
  raw: typeof raw;
  identifier: typeof identifier;
  join: typeof join;
  empty: Sql;
};

export const sql: SqlTag = Object.assign(tag, { raw, identifier, join, empty });

type Expression = string | number | Sql;
/** A string when every expression is text, a fragment as soon as one is. */
export type TextOr<E> = [Extract<E, Sql>] extends [never] ? string : Sql;

/**
 * A shared condition written once for both statement forms (`activeMember`, `notBlocked`...):
 * given SQL expressions as text (`'$1'`, `'l.user_id'`) it gives text; given a `sql` fragment
 * (`sql\`${viewerId}\``) anywhere it gives a fragment, the text taken as constant SQL.
 */
export function sqlText<E extends readonly Expression[]>(
  strings: TemplateStringsArray,
  ...expressions: E
): TextOr<E[number]> {
  type Result = TextOr<E[number]>;
  if (!expressions.some((e) => e instanceof Sql))
    return strings.reduce(
      (text, part, i) => `${text}${String(expressions[i - 1])}${part}`,
    ) as Result;
  return new Sql(
    strings.map(checkLiteral),
    expressions.map((e) => (e instanceof Sql ? e : raw(String(e)))),
  ) as Result;
}

/** A statement in either form the database takes: a `sql` fragment, or text and its parameters. */
export type Statement = string | Sql;

/** The text and values the driver is given (no values: none are sent). */
export function statementOf(
  statement: Statement,
  params?: readonly unknown[],
): { text: string; values: unknown[] | undefined } {
  if (statement instanceof Sql) {
    if (params !== undefined)
      throw new TypeError('A sql`...` statement carries its own values: pass no parameters');
    const text = statement.text;
    return { text, values: statement.values.length ? [...statement.values] : undefined };
  }
  return { text: statement, values: params as unknown[] | undefined };
}
