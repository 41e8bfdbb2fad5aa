import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TERMS_VERSION } from '@shared/constants';
import { createTestApp } from '../../test/app';
import { callAs, createMember, randomClientIp } from '../../test/members';
import { users } from '../../db/schema';
import { saleListing } from '../../test/listings';

/** Issue 33 item 10: nobody signs up without accepting the terms; Google accounts accept later. */
describe('accounts: the terms of service', async () => {
  const t = await createTestApp();
  const call = callAs(() => t);
  const signUp = (payload: object, lang = 'en') =>
    t.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': lang },
      payload,
    });
  const rowOf = async (email: string) =>
    (await t.database.db.select().from(users).where(eq(users.email, email)))[0];
  const body = (email: string) => ({
    email,
    password: 'libri-usati-8',
    name: 'Terms Reader',
    username: `t_${email.split('@')[0].replace(/\W/g, '_').slice(0, 12)}`,
  });

  it('refuses a sign-up without acceptTerms: true, in the reader’s language, creating nothing', async () => {
    for (const [extra, lang, message] of [
      [{}, 'en', 'Accept the terms of service and the privacy policy to continue'],
      [
        { acceptTerms: false },
        'it',
        "Per continuare, accetta i termini di servizio e l'informativa sulla privacy",
      ],
      [{ acceptTerms: 'true' }, 'en', undefined],
      [{ acceptTerms: 1 }, 'en', undefined],
    ] as const) {
      const res = await signUp({ ...body('no.terms@example.com'), ...extra }, lang);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe('validation_failed');
      expect(error.fields.acceptTerms).toBe(message ?? error.message);
      if (message) expect(error.message).toBe(message);
    }
    expect(await rowOf('no.terms@example.com')).toBeUndefined();
  });

  it('stores when the terms were accepted, and which, with the new account', async () => {
    const before = Date.now();
    const res = await signUp({ ...body('accepts@example.com'), acceptTerms: true });
    expect(res.statusCode, res.body).toBe(200);
    const row = await rowOf('accepts@example.com');
    expect(row.termsVersion).toBe(TERMS_VERSION);
    expect(row.termsAcceptedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.termsAcceptedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('a password of 7 characters is refused in the reader’s language, creating nothing; 8 is taken', async () => {
    const short = { ...body('seven@example.com'), password: '7-chars', acceptTerms: true };
    const en = await signUp(short);
    expect(en.statusCode).toBe(400);
    expect(en.json().error).toMatchObject({
      code: 'password_too_short',
      message: 'Password must be at least 8 characters',
      fields: { password: 'Password must be at least 8 characters' },
    });
    const it = await signUp(short, 'it');
    expect(it.json().error.message).toBe('La password deve contenere almeno 8 caratteri');
    expect(await rowOf('seven@example.com')).toBeUndefined();
    const ok = await signUp({
      ...body('eight@example.com'),
      password: '8-chars!',
      acceptTerms: true,
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('documents acceptTerms and its 400 in the OpenAPI document', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const route = doc.paths['/api/auth/sign-up/email'].post;
    const schema = route.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'password', 'acceptTerms']));
    expect(schema.properties.acceptTerms).toMatchObject({ enum: [true] });
    expect(Object.keys(route.responses)).toEqual(expect.arrayContaining(['200', '400', '429']));
    expect(route.description).toMatch(/acceptTerms must be true/);
    // Every change a member makes documents the terms' refusal; the exempt routes do not.
    expect(Object.keys(doc.paths['/api/listings'].post.responses)).toContain('403');
    expect(doc.paths['/api/me/holiday'].put.responses['403'].description).toMatch(/terms_required/);
    expect(doc.paths['/api/me'].patch.responses['403']).toBeUndefined();
    expect(doc.paths['/api/listings'].get.responses['403']).toBeUndefined();
  });

  it('a member who never accepted is asked (needsTerms) and accepts with PATCH /api/me', async () => {
    const member = await createMember(t);
    const other = await createMember(t);
    // As a Google account, or one made before sign-up asked.
    await t.database.query(
      'update users set terms_accepted_at = null, terms_version = null where id = any($1)',
      [[member.id, other.id]],
    );
    expect((await call(member, 'GET', '/api/me')).json().needsTerms).toBe(true);
    expect((await call(null, 'PATCH', '/api/me', { acceptTerms: true })).statusCode).toBe(401);
    const refused = await call(member, 'PATCH', '/api/me', { acceptTerms: false }, 'it');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.acceptTerms).toBe(
      "Per continuare, accetta i termini di servizio e l'informativa sulla privacy",
    );
    expect((await call(member, 'GET', '/api/me')).json().needsTerms).toBe(true);

    const accepted = await call(member, 'PATCH', '/api/me', { acceptTerms: true });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().needsTerms).toBe(false);
    const row = await rowOf(member.email);
    expect(row.termsVersion).toBe(TERMS_VERSION);
    expect(row.termsAcceptedAt).not.toBeNull();
    // The session's member alone: the other account still has to accept.
    expect((await call(other, 'GET', '/api/me')).json().needsTerms).toBe(true);
    expect((await rowOf(other.email)).termsAcceptedAt).toBeNull();
  });

  it('the server refuses every change but accepting, the data and leaving until the terms are accepted', async () => {
    const member = await createMember(t);
    const friend = await createMember(t);
    await t.database.query('update users set terms_accepted_at = null where id = $1', [member.id]);
    const count = async () =>
      (
        await t.database.query<{ n: number }>(
          'select count(*)::int as n from book_listings where user_id = $1',
          [member.id],
        )
      )[0].n;
    const away = new Date(Date.now() + 5 * 24 * 3600_000).toISOString().slice(0, 10);
    // A listing, a friend request, holiday mode: 403 in the reader's language, nothing written.
    for (const [method, url, payload] of [
      ['POST', '/api/listings', saleListing],
      ['POST', '/api/connections', { userId: friend.id }],
      ['PUT', '/api/me/holiday', { awayUntil: away }],
    ] as const) {
      const res = await call(member, method, url, payload, 'it');
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toMatchObject({
        code: 'terms_required',
        message: "Per continuare, accetta i termini di servizio e l'informativa sulla privacy",
      });
    }
    expect(await count()).toBe(0);
    // Reading stays open; so do the data export and the way out.
    expect((await call(member, 'GET', '/api/me')).statusCode).toBe(200);
    expect((await call(member, 'POST', '/api/me/export')).statusCode).toBe(200);
    // A query string naming an exempt route does not make a route exempt.
    expect((await call(member, 'POST', '/api/listings?x=/api/me', saleListing)).statusCode).toBe(
      403,
    );
    // Accepted: the same listing goes through at once (the session's cache forgets the old state).
    expect((await call(member, 'PATCH', '/api/me', { acceptTerms: true })).statusCode).toBe(200);
    expect((await call(member, 'POST', '/api/listings', saleListing)).statusCode).toBe(201);
    expect(await count()).toBe(1);
  });

  it('better-auth’s own routes cannot set the acceptance', async () => {
    const member = await createMember(t);
    const res = await call(member, 'POST', '/api/auth/update-user', { termsAcceptedAt: null });
    expect(res.statusCode).toBe(404);
    expect((await rowOf(member.email)).termsAcceptedAt).not.toBeNull();
  });
});
