import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { MAX_PARAMETERS, sql, statementOf } from './sql';
import { inTransaction } from './tx';
import { createTestDatabase } from '../test/app';

describe('the sql tag', () => {
  it('numbers the values in order and keeps them apart from the text', () => {
    const name = "O'Brien'); drop table users; --";
    const q = sql`select id from users where name = ${name} and age > ${30} limit ${5}`;
    expect(q.text).toBe('select id from users where name = $1 and age > $2 limit $3');
    expect(q.values).toEqual([name, 30, 5]);
  });

  it('renumbers a nested fragment and keeps its values in place', () => {
    const mine = sql`p.author_id = ${'u1'} and p.kind = ${'post'}`;
    const q = sql`select * from posts p where p.x = ${1} and ${mine} and p.y = ${2}`;
    expect(q.text).toBe(
      'select * from posts p where p.x = $1 and p.author_id = $2 and p.kind = $3 and p.y = $4',
    );
    expect(q.values).toEqual([1, 'u1', 'post', 2]);
    // The same fragment twice gives two parameters each time, numbered where they stand.
    const twice = sql`${mine} or ${mine}`;
    expect(twice.text).toBe('p.author_id = $1 and p.kind = $2 or p.author_id = $3 and p.kind = $4');
    expect(twice.values).toEqual(['u1', 'post', 'u1', 'post']);
  });

  it('nests fragments several levels deep, at the start and at the end', () => {
    const inner = sql`${'a'}`;
    const middle = sql`${inner} = ${inner}`;
    const outer = sql`${middle}`;
    expect(outer.text).toBe('$1 = $2');
    expect(outer.values).toEqual(['a', 'a']);
    expect(sql`${sql.empty}`.text).toBe('');
  });

  it('joins values as parameters and fragments as SQL, with any separator', () => {
    const cols = sql.join([sql.raw('a'), sql.raw('b')]);
    expect(sql`select ${cols} from t`.text).toBe('select a, b from t');
    const sets = sql.join([sql`a = ${1}`, sql`b = ${'x'}`, sql`updated_at = now()`]);
    const q = sql`update t set ${sets} where id = ${'id'}`;
    expect(q.text).toBe('update t set a = $1, b = $2, updated_at = now() where id = $3');
    expect(q.values).toEqual([1, 'x', 'id']);
    const values = sql`values (${sql.join(['x', 'y', 'z'])})`;
    expect(values.text).toBe('values ($1, $2, $3)');
    const conditions = sql.join([sql`a = ${1}`, sql`b = ${2}`], sql` and `);
    expect(conditions.text).toBe('a = $1 and b = $2');
    expect(sql.join([sql`a = ${1}`, sql`b = ${2}`], ' or ').text).toBe('a = $1 or b = $2');
  });

  it('gives nothing for an empty list, and an empty array stays one parameter', () => {
    expect(sql.join([]).text).toBe('');
    expect(sql.join([]).values).toEqual([]);
    const q = sql`select 1 where x = any(${[]})`;
    expect(q.text).toBe('select 1 where x = any($1)');
    expect(q.values).toEqual([[]]);
  });

  it('quotes identifiers and refuses hand-numbered parameters in its text', () => {
    expect(sql`select * from ${sql.identifier('odd "name"')}`.text).toBe(
      'select * from "odd ""name"""',
    );
    expect(() => sql`select * from t where id = $1`).toThrow(/not as a numbered parameter/);
    expect(() => sql.raw('id = $2')).toThrow(/not as a numbered parameter/);
    // Dollar quotes and dollars in words are not parameters.
    expect(sql`select $$a$$, 'US$' || ${'1'}`.text).toBe("select $$a$$, 'US$' || $1");
  });

  it('passes NUL bytes and huge values as values, never as text', () => {
    const nul = 'a\u0000b';
    const huge = 'x'.repeat(1_000_000);
    const q = sql`select ${nul}::text as a, ${huge}::text as b`;
    expect(q.text).toBe('select $1::text as a, $2::text as b');
    expect(q.values[0]).toBe(nul);
    expect(q.values[1]).toHaveLength(1_000_000);
  });

  it('refuses more parameters than the protocol numbers, pointing at an array', () => {
    const many = sql`select ${sql.join(Array.from({ length: MAX_PARAMETERS + 1 }, (_, i) => i))}`;
    expect(() => many.text).toThrow(/at most 65535 parameters.*array parameter/);
    expect(
      sql`select ${sql.join(Array.from({ length: MAX_PARAMETERS }, (_, i) => i))}`.text,
    ).toMatch(/\$65535$/);
  });

  it('is one of two statement forms: text with its parameters still works', () => {
    expect(statementOf('select $1', [1])).toEqual({ text: 'select $1', values: [1] });
    expect(statementOf('select 1')).toEqual({ text: 'select 1', values: undefined });
    expect(statementOf(sql`select ${1}`)).toEqual({ text: 'select $1', values: [1] });
    expect(() => statementOf(sql`select ${1}`, [2])).toThrow(/carries its own values/);
  });
});

describe('the sql tag on the database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('runs through query() and inside a transaction, values coming back as given', async () => {
    const evil = "'; drop table users; --";
    const [row] = await database.query<{ a: string; b: number; n: number }>(
      sql`select ${evil}::text as a, ${41}::int + 1 as b, (select count(*)::int from users) as n`,
    );
    expect(row.a).toBe(evil);
    expect(row.b).toBe(42);
    const rows = await inTransaction(database, (q) =>
      q<{ x: number }>(
        sql`select x from unnest(${[3, 1, 2]}::int[]) x where x = any(${[1, 2]}::int[]) order by x`,
      ),
    );
    expect(rows.map((r) => r.x)).toEqual([1, 2]);
    expect(await database.query(sql`select 1 where 1 = any(${[]}::int[])`)).toEqual([]);
  });

  it('hands a huge value over whole', async () => {
    const huge = 'é'.repeat(500_000);
    const [row] = await database.query<{ n: number; same: boolean }>(
      sql`select length(${huge}::text) as n, ${huge}::text = repeat('é', 500000) as same`,
    );
    expect(row).toEqual({ n: 500_000, same: true });
  });

  it('lets the database refuse a NUL byte in text, and nothing else runs', async () => {
    const before = await database.query<{ n: number }>(sql`select count(*)::int as n from users`);
    await expect(
      database.query(sql`select ${'a\u0000b; delete from users'}::text`),
    ).rejects.toThrow();
    expect(await database.query(sql`select count(*)::int as n from users`)).toEqual(before);
  });
});
