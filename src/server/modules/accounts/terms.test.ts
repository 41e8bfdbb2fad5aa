import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TERMS_VERSION } from '@shared/constants';
import { createTestApp } from '../../test/app';
import { randomUUID } from 'node:crypto';
import { callAs, createMember, makeAdmin, randomClientIp } from '../../test/members';
import { mustOpen } from '../../platform/realtime/testing';
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

  it('the gate holds on every route, whatever guards it: uploads, reports, admin tools, chat by HTTP and by socket', async () => {
    const member = await createMember(t);
    const friend = await createMember(t);
    await makeAdmin(t, member);
    // The member's first request comes after the acceptance is gone (as a Google account's).
    const room = (await call(friend, 'POST', '/api/chats/direct', { userId: member.id })).json()
      .room.id as string;
    const listing = (await call(friend, 'POST', '/api/listings', saleListing)).json().id as string;
    await t.database.query('update users set terms_accepted_at = null where id = $1', [member.id]);
    const messages = async () =>
      (
        await t.database.query<{ n: number }>(
          'select count(*)::int as n from chat_messages where sender_id = $1',
          [member.id],
        )
      )[0].n;
    for (const [method, url, payload] of [
      ['POST', '/api/uploads/cover', undefined],
      ['POST', '/api/me/avatar', undefined],
      ['POST', '/api/reports', { kind: 'listing', id: listing, reason: 'spam' }],
      ['POST', `/api/admin/members/${friend.id}/suspend`, { reason: 'test' }],
      ['POST', `/api/chats/rooms/${room}/messages`, { content: 'Ciao' }],
    ] as const) {
      const res = await call(member, method, url, payload, 'en');
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.code, url).toBe('terms_required');
    }
    expect((await call(friend, 'GET', '/api/me')).statusCode).toBe(200); // not suspended
    // A socket opened before (or after) does not walk around it: the send is refused, not stored.
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = await mustOpen(base, { cookie: member.cookie, origin: t.config.publicUrl });
    try {
      const clientId = randomUUID();
      socket.send({ type: 'chat.send', clientId, roomId: room, content: 'Ciao' });
      const nack = await socket.next((f) => f.clientId === clientId, 5000);
      expect(nack).toMatchObject({ type: 'chat.nack', status: 403, code: 'terms_required' });
      expect(await messages()).toBe(0);
      // What stays open: writing to support, signing out.
      const contact = await t.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: randomClientIp(),
        headers: { cookie: member.cookie },
        payload: {
          name: 'Terms Reader',
          email: member.email,
          subject: 'feedback',
          message: 'Una domanda sui termini.',
        },
      });
      expect(contact.statusCode, contact.body).toBe(201);
      // Accepted: the same socket sends.
      expect((await call(member, 'PATCH', '/api/me', { acceptTerms: true })).statusCode).toBe(200);
      const again = randomUUID();
      socket.send({ type: 'chat.send', clientId: again, roomId: room, content: 'Ciao' });
      expect(await socket.next((f) => f.clientId === again, 5000)).toMatchObject({
        type: 'chat.ack',
      });
      expect(await messages()).toBe(1);
    } finally {
      socket.ws.close();
      await socket.closed;
    }
  }, 60_000);

  it('every change a member’s route makes documents the refusal, but for the exempt ones', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const exempt = [
      'PATCH /api/me',
      'POST /api/me/export',
      'POST /api/me/delete',
      'DELETE /api/me/sessions/others',
      'POST /api/accounts/sign-in', // 401: a wrong password, not a member's route
    ];
    const missing: string[] = [];
    for (const [path, ops] of Object.entries<Record<string, { responses?: object }>>(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        const responses = op.responses ?? {};
        if (method === 'get' || !('401' in responses) || exempt.includes(name)) continue;
        if (!('403' in responses)) missing.push(name);
      }
    expect(missing).toEqual([]);
  });

  it('better-auth’s own routes cannot set the acceptance', async () => {
    const member = await createMember(t);
    const res = await call(member, 'POST', '/api/auth/update-user', { termsAcceptedAt: null });
    expect(res.statusCode).toBe(404);
    expect((await rowOf(member.email)).termsAcceptedAt).not.toBeNull();
  });
});
