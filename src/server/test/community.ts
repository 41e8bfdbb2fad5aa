// Community helpers for the tests: requests as a member, catalogue books, posts.
import { expect } from 'vitest';
import type { TestApp } from './app';
import type { Member, Method } from './members';

/** A request as a member (or a visitor: null), in a language. */
export function caller(t: TestApp) {
  return (who: Member | null, method: Method, url: string, payload?: unknown, lang = 'en') =>
    t.inject({
      method,
      url,
      headers: { 'accept-language': lang, ...(who ? { cookie: who.cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

/** A catalogue book, as the catalogue search stores them. */
export async function createBook(t: TestApp, title: string, author: string): Promise<string> {
  const [row] = await t.database.query<{ id: string }>(
    `insert into books (title, authors, author, isbn_13) values ($1, array[$2], $2, $3) returning id`,
    [title, author, `978${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`],
  );
  return row.id;
}

export async function createPost(
  t: TestApp,
  who: Member,
  bookId: string,
  content: string,
  extra: object = {},
) {
  const res = await caller(t)(who, 'POST', '/api/community/posts', {
    bookId,
    content,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; likeCount: number; commentCount: number };
}
