import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { checkSqlText, type Finding } from '../test/sql-text';

/**
 * What SQL text may be built from (decision 0091): in the app's server code, the text given to
 * query() and sql.raw() is constant SQL, and no parameter is numbered by hand. The exceptions,
 * each with its reason: a finding is allowed when its key (`file: expression`) or its file or
 * folder is listed here, and an entry nothing matches fails too (it is stale).
 */
const ALLOWED: Record<string, string> = {
  'src/server/db/sql.ts: i': 'the sql tag itself numbers the parameters',
  'src/server/db/client.ts: sql':
    'exec() runs several statements without parameters: the migration files (migrate.ts, its only caller)',
  'src/server/db/migrate.ts: m.sql':
    'a migration file of src/server/db/migrations, from the repository',
  'src/server/modules/library/search/':
    'the search builds its SQL with its own Filters: filters.ts alone numbers their parameters, in one place (its ranking, filter and same-results tests cover it); it moves to the sql tag when the search is next rebuilt, not as a side job',
  'src/server/modules/library/shelves.ts':
    'built on the search Filters (library/search/filters.ts), and moves to the sql tag with them',
};

const root = resolve(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
      ? [relative(root, full)]
      : [];
  });
}

const allowed = (f: Finding) =>
  Object.keys(ALLOWED).some(
    (key) => f.key === key || (!key.includes(': ') && f.key.startsWith(key)),
  );

describe('SQL text in the server', () => {
  it('is built from constants only, values going as parameters', () => {
    const server = sourceFiles(join(root, 'src/server'));
    const scanned = server.filter(
      (f) => !f.startsWith('src/server/test/') && !f.endsWith('.fixture.ts'),
    );
    const findings = checkSqlText(root, scanned, [
      ...server,
      ...sourceFiles(join(root, 'src/shared')),
    ]);
    expect(
      findings.filter((f) => !allowed(f)).map((f) => `${f.key} (line ${f.line}): ${f.why}`),
    ).toEqual([]);
    const stale = Object.keys(ALLOWED).filter(
      (key) =>
        !findings.some((f) => f.key === key || (!key.includes(': ') && f.key.startsWith(key))),
    );
    expect(stale).toEqual([]);
  }, 120_000);
});

describe('the check', () => {
  /** The findings in a small project of the given files. */
  function check(files: Record<string, string>): string[] {
    const dir = mkdtempSync(join(tmpdir(), 'sql-text-'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true } }),
    );
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return checkSqlText(dir, Object.keys(files)).map((f) => f.key);
  }

  const db = `
    import { sql } from './sql';
    export const sqlStub = sql;
    export declare const database: { query(text: unknown, params?: unknown[]): Promise<unknown[]> };
  `;

  it('fails on a value written into the text, however it travels', () => {
    const found = check({
      'db.ts': db,
      'sql.ts': 'export declare function sql(s: TemplateStringsArray, ...v: unknown[]): unknown;',
      'route.ts': `
        import { database } from './db';
        import { sql } from './sql';
        export async function search(body: { q: string; sort: string }) {
          await database.query(\`select * from books where title = '\${body.q}'\`);
          const order = body.sort;
          await database.query(\`select * from books order by \${order}\`);
          let where = 'true';
          where += \` and title = '\${body.q}'\`;
          await database.query(\`select * from books where \${where}\`);
          const parts: string[] = [];
          parts.push(body.q);
          await database.query(\`select \${parts.join(', ')} from books\`);
          await database.query(sql\`select * from books order by \${sql.raw(body.sort)}\`);
        }
        const byColumn = (column: string) => database.query(\`select \${column} from books\`);
        export const viaCaller = (input: string) => byColumn(input);
      `,
    });
    expect(found).toEqual([
      'route.ts: body.q',
      'route.ts: order',
      'route.ts: where',
      "route.ts: parts.join(', ')",
      'route.ts: body.sort',
      'route.ts: column',
    ]);
  });

  it('fails on a parameter numbered by hand and on SQL text given to sql`` as a value', () => {
    const found = check({
      'sql.ts': 'export declare function sql(s: TemplateStringsArray, ...v: unknown[]): unknown;',
      'q.ts': `
        import { sql } from './sql';
        declare const query: (text: unknown, params?: unknown[]) => Promise<unknown[]>;
        const ACTIVE = \`select id from users where active\`;
        const mine = (column: string) => \`\${column} in (select id from users where active)\`;
        export async function update(sets: string[], values: unknown[]) {
          const numbered = sets.map((s, i) => \`\${s} = $\${i + 2}\`);
          await query(sql\`select * from t where id in (\${ACTIVE}) and \${mine('t.owner')}\`);
          return numbered;
        }
      `,
    });
    expect(found).toEqual(['q.ts: i + 2', 'q.ts: ACTIVE', "q.ts: mine('t.owner')"]);
  });

  it('passes constants, choices between them, shared conditions and handed-on statements', () => {
    const found = check({
      'db.ts': db,
      'sql.ts': 'export declare function sql(s: TemplateStringsArray, ...v: unknown[]): unknown;',
      'members.ts': `
        export const INACTIVE = \`select id from users where status <> 'active'\`;
        export const activeMember = (column: string) => \`\${column} not in (\${INACTIVE})\`;
      `,
      'route.ts': `
        import { database } from './db';
        import { sql } from './sql';
        import { activeMember } from './members';
        const COLUMNS = ['id', 'title'].join(', ');
        const FILTERS = { all: 'true', mine: 'owner = $1' } as const;
        const LIMIT = 20;
        export async function list(me: string, filter: keyof typeof FILTERS, lock: boolean) {
          const [a, b] = lock ? ['x', 'y'] : ['y', 'x'];
          await database.query(
            \`select \${COLUMNS}, \${a}, \${b} from books l where \${FILTERS[filter]}
               and \${activeMember('l.owner')} limit \${LIMIT + 1} \${lock ? 'for update' : ''}\`,
            [me],
          );
          await database.query(sql\`select * from books where owner = \${me} and \${sql.raw(activeMember('owner'))}\`);
          const rows = (table: 'a' | 'b') => database.query(\`select * from \${table}\`);
          await rows('a');
          const run = (text: string, params?: unknown[]) => database.query(text, params);
          await run('select 1');
          return [(t: string, p?: unknown[]) => database.query(t, p)];
        }
      `,
    });
    expect(found).toEqual([]);
  });
});
