import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createMember, randomClientIp, type Member } from '../test/members';
import { findUnstorableText } from './text-input';

const NUL = '\u0000';
const LONE_HIGH = '\uD800';
const LONE_LOW = '\uDC00';
const BAD_CHARACTER = 'This value contains a character that is not allowed';

let t: TestApp;
let member: Member;

beforeAll(async () => {
  t = await createTestApp({
    config: { googleBooks: { baseUrl: 'http://127.0.0.1:9', enabled: false, timeoutMs: 200 } },
  });
  member = await createMember(t);
});

const contact = (over: Record<string, unknown> = {}) => ({
  name: 'Anna',
  email: 'anna@example.org',
  subject: 'general',
  message: 'Una domanda sui libri usati.',
  ...over,
});

function expectRefused(res: { statusCode: number; json: () => unknown }, field: string) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { error: { code: string; fields?: Record<string, string> } };
  expect(body.error.code).toBe('validation_failed');
  expect(body.error.fields?.[field]).toContain(BAD_CHARACTER);
}

describe('text the database cannot store is refused with 400 everywhere', () => {
  it('a NUL byte in a JSON field', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: contact({ message: `ciao${NUL}mondo` }),
    });
    expectRefused(res, 'message');

    const listing = await t.inject({
      method: 'POST',
      url: '/api/listings',
      headers: { cookie: member.cookie, 'accept-language': 'en' },
      payload: {
        mode: 'quickSell',
        title: `Il Gattopardo${NUL}`,
        author: 'Giuseppe Tomasi di Lampedusa',
        price: 5,
      },
    });
    expectRefused(listing, 'title');
  });

  it('a lone surrogate in a JSON field (the \\ud800 escape), high or low', async () => {
    for (const bad of [LONE_HIGH, `x${LONE_LOW}`, `${LONE_LOW}${LONE_HIGH}`]) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: randomClientIp(),
        headers: { 'accept-language': 'en' },
        payload: contact({ name: `Anna ${bad}` }),
      });
      expectRefused(res, 'name');
    }
  });

  it('in a nested field, an array item and an object key, naming where it is', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: { ...contact(), extra: { list: ['ok', `no${NUL}`] } },
    });
    expectRefused(res, 'extra.list.1');
    const key = await t.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: { ...contact(), [`k${NUL}`]: 1 },
    });
    expectRefused(key, '_');
  });

  it('in the sign-up body that better-auth handles', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: {
        acceptTerms: true,
        email: 'nul@example.org',
        password: 'correct-horse-7',
        name: `Nul${NUL}`,
      },
    });
    expectRefused(res, 'name');
  });

  it('a NUL byte in a path id', async () => {
    for (const url of [
      '/api/users/abc%00def/profile',
      '/api/users/%00/listings',
      '/api/listings/%00',
      '/api/community/posts/x%00y',
    ]) {
      const res = await t.inject({
        method: 'GET',
        url,
        headers: { cookie: member.cookie, 'accept-language': 'en' },
      });
      expect(res.statusCode, url).toBe(400);
      expect(Object.values(res.json().error.fields ?? {}).join(), url).toContain(BAD_CHARACTER);
    }
  });

  it('a NUL byte or a lone surrogate in a query string', async () => {
    const cases: [string, string][] = [
      ['/api/catalogue/search?q=rosa%00', 'q'],
      ['/api/community/posts/search?q=%00', 'q'],
      ['/api/connections/search?q=a%00b', 'q'],
    ];
    for (const [url, field] of cases) {
      const res = await t.inject({
        method: 'GET',
        url,
        headers: { cookie: member.cookie, 'accept-language': 'en' },
      });
      expectRefused(res, field);
    }
  });

  it('in Italian by default', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: randomClientIp(),
      payload: contact({ message: NUL }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.message).toContain('carattere non ammesso');
  });

  it('answers 400, not 500, to JSON nested 10,000 levels deep', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    for (const url of ['/api/contact', '/api/listings']) {
      const res = await t.inject({
        method: 'POST',
        url,
        remoteAddress: randomClientIp(),
        headers: { cookie: member.cookie, 'content-type': 'application/json' },
        payload: `{"message": ${deep}}`,
      });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('keeps accents, emoji and paired surrogates as they are', async () => {
    const message = 'Ciao! Perché «Il nome della rosa» 📚 è già venduto? 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓';
    const res = await t.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: randomClientIp(),
      payload: contact({ message, name: 'Zoë Żółć 李' }),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const [row] = await t.database.query<{ message: string; name: string }>(
      'select message, name from contact_messages order by created_at desc limit 1',
    );
    expect(row).toEqual({ message, name: 'Zoë Żółć 李' });
  });
});

describe('findUnstorableText', () => {
  it('walks without recursion and names the first bad place', () => {
    expect(findUnstorableText({ a: 'ok', b: ['x', { c: `y${NUL}` }] })).toBe('b.1.c');
    expect(findUnstorableText('👍🏽')).toBeNull();
    let nested: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) nested = [nested];
    expect(findUnstorableText(nested)).toBe('too-deep');
    expect(findUnstorableText(Buffer.from([0, 0, 0]))).toBeNull();
  });
});
