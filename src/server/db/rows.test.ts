import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { getTableColumns } from 'drizzle-orm';
import { fieldsOf, toIso } from './rows';
import { users } from './schema';
import { sql } from './sql';
import { createTestDatabase } from '../test/app';

describe('rows as the driver gives them', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('a timestamptz is a Date, written as ISO by toIso; inside json it is a string', async () => {
    const at = '2026-12-07T10:20:30.456Z';
    const [row] = await database.query<{ at: Date; none: Date | null; j: { at: string } }>(
      sql`select ${at}::timestamptz as at, null::timestamptz as none,
            json_build_object('at', ${at}::timestamptz) as j`,
    );
    expect(row.at).toBeInstanceOf(Date);
    expect(toIso(row.at)).toBe(at);
    expect(toIso(row.none)).toBeNull();
    expect(typeof row.j.at).toBe('string');
    expect(new Date(row.j.at).toISOString()).toBe(at);
  });

  it('int and float8 are numbers, numeric a string', async () => {
    const [row] = await database.query<{ i: number; f: number; n: string }>(
      sql`select ${7}::int as i, ${1.5}::float8 as f, ${'2.50'}::numeric as n`,
    );
    expect(row).toEqual({ i: 7, f: 1.5, n: '2.50' });
  });

  it('fieldsOf gives a whole row named as the schema names it', async () => {
    await database.query(
      sql`insert into users (id, email, username, date_of_birth)
          values ('fields-of', 'Fields@Example.com', 'Fields', '1990-04-05')`,
    );
    const [row] = await database.query<typeof users.$inferSelect>(
      sql`select ${fieldsOf(users)} from users where id = 'fields-of'`,
    );
    expect(Object.keys(row).sort()).toEqual(Object.keys(getTableColumns(users)).sort());
    expect(row).toMatchObject({
      email: 'Fields@Example.com',
      username: 'Fields',
      dateOfBirth: '1990-04-05',
      emailVerified: false,
    });
    expect(row.createdAt).toBeInstanceOf(Date);
  });
});
