import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { gattopardo } from '../../test/listings';

export let t: TestApp;
export let seller: Member;
export let other: Member;
export let buyer: Member;
/** The app's clock: moved forward to get past the 30 s cache of /api/stats. */
export let clock = Date.now();
/** Moves the app's clock forward (a test file cannot assign an imported binding). */
export const advanceClock = (ms: number) => {
  clock += ms;
};

export const full = { ...gattopardo, language: 'Italiano', isNegotiable: true };

export function req(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  who?: Member,
  payload?: unknown,
  lang = 'en',
) {
  return t.inject({
    method,
    url,
    headers: { 'accept-language': lang, ...(who ? { cookie: who.cookie } : {}) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export async function create(who: Member, body: object = full) {
  const res = await req('POST', '/api/listings', who, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(async () => {
    t = await createTestApp({
      config: { dataDir: mkdtempSync(join(tmpdir(), 'scaffale-listings-')) },
      deps: { now: () => new Date(clock) },
    });
    seller = await createMember(t, { username: 'seller_one', displayName: 'Sara Seller' });
    other = await createMember(t, { username: 'other_one', displayName: 'Otto Other' });
    buyer = await createMember(t, { username: 'buyer_one', displayName: 'Bruno Buyer' });
  });
}
