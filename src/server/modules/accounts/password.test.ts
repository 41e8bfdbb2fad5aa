// POST /api/me/password: the current password, a new one; every other session of the member ends
// (and its sockets close through the sessions table's trigger), the current one stays.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, randomClientIp, signIn, type Member } from '../../test/members';
import { mustOpen, openSocket, wait } from '../../platform/realtime/testing';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ config: { authAccountRateLimitPerHour: 5 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);

const change = (cookie: string | null, payload: unknown, lang = 'en') =>
  t.inject({
    method: 'POST',
    url: '/api/me/password',
    remoteAddress: randomClientIp(),
    headers: { 'accept-language': lang, ...(cookie ? { cookie } : {}) },
    payload: payload as object,
  });

const me = (cookie: string) =>
  t.inject({ method: 'GET', url: '/api/me', headers: { cookie, 'accept-language': 'en' } });

const signInAnswer = (email: string, password: string) =>
  t.inject({
    method: 'POST',
    url: '/api/accounts/sign-in',
    remoteAddress: randomClientIp(),
    headers: { 'accept-language': 'en' },
    payload: { identifier: email, password },
  });

async function mailsTo(email: string) {
  const res = await t.inject({ method: 'GET', url: '/api/dev/mail' });
  return (res.json() as { to: string; subject: string; text: string }[]).filter(
    (m) => m.to === email,
  );
}

describe('POST /api/me/password', () => {
  it('is in the OpenAPI document with its errors', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const op = doc.paths['/api/me/password'].post;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
  });

  it('answers 401 to a visitor', async () => {
    const res = await change(null, { currentPassword: 'x', newPassword: 'new-password-1' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Unauthorized. Please login.');
  });

  it('changes the password: other sessions end and their sockets close, this one stays', async () => {
    const member = await createMember(t, { displayName: 'Paola Password' });
    const laptop = await signIn(t, member.email, member.password);
    const phone = await signIn(t, member.email, member.password);
    const origin = t.config.publicUrl;
    const laptopSocket = await mustOpen(base, { cookie: laptop, origin });
    const hereSocket = await mustOpen(base, { cookie: member.cookie, origin });
    const other = await createMember(t);
    const otherSocket = await mustOpen(base, { cookie: other.cookie, origin });

    const res = await change(member.cookie, {
      currentPassword: member.password,
      newPassword: 'a-brand-new-secret',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ endedSessions: 2 });

    expect(await laptopSocket.closed).toBe(4401);
    expect((await me(laptop)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(member.cookie)).statusCode).toBe(200);
    const retry = await openSocket(base, { cookie: laptop, origin });
    expect(retry.opened).toBe(false);
    await wait(100);
    expect(hereSocket.ws.readyState).toBe(hereSocket.ws.OPEN);
    expect(otherSocket.ws.readyState).toBe(otherSocket.ws.OPEN);
    // Another member's sessions are untouched.
    expect((await me(other.cookie)).statusCode).toBe(200);

    // The old password no longer signs in; the new one does.
    expect((await signInAnswer(member.email, member.password)).statusCode).toBe(401);
    expect((await signInAnswer(member.email, 'a-brand-new-secret')).statusCode).toBe(200);

    // The member is told by e-mail, in their language, with a way back if it was not them.
    const [mail] = await mailsTo(member.email);
    expect(mail.subject).toMatch(
      /^(Your Scaffale password has been changed|La password di Scaffale è stata cambiata)$/,
    );
    expect(mail.text).toContain('/login?forgot=1');
  });

  it('writes the e-mail in the member’s preferred language', async () => {
    const member = await createMember(t);
    const set = await t.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: { cookie: member.cookie },
      payload: { preferredLanguage: 'it' },
    });
    expect(set.statusCode).toBe(200);
    const res = await change(member.cookie, {
      currentPassword: member.password,
      newPassword: 'nuova-password-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ endedSessions: 0 });
    const [mail] = await mailsTo(member.email);
    expect(mail.subject).toBe('La password di Scaffale è stata cambiata');
  });

  it('a wrong current password: 400 with the field message, nothing changes', async () => {
    const member = await createMember(t);
    const laptop = await signIn(t, member.email, member.password);
    const res = await change(member.cookie, {
      currentPassword: 'not-my-password',
      newPassword: 'whatever-new-1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'invalid_password',
      message: 'The current password is not correct.',
      fields: { currentPassword: 'The current password is not correct.' },
    });
    const itRes = await change(
      member.cookie,
      { currentPassword: 'sbagliata', newPassword: 'whatever-new-1' },
      'it',
    );
    expect(itRes.json().error.message).toBe('La password attuale non è corretta.');
    expect((await me(laptop)).statusCode).toBe(200);
    expect((await signInAnswer(member.email, member.password)).statusCode).toBe(200);
  });

  it('wrong guesses are rate-limited per member (429), even with the right one after', async () => {
    const member = await createMember(t);
    for (let i = 0; i < 5; i++) {
      const res = await change(member.cookie, {
        currentPassword: `guess-${i}`,
        newPassword: 'x'.repeat(8),
      });
      expect(res.statusCode).toBe(400);
    }
    const blocked = await change(member.cookie, {
      currentPassword: member.password,
      newPassword: 'new-password-9',
    });
    expect(blocked.statusCode).toBe(429);
    expect((await signInAnswer(member.email, member.password)).statusCode).toBe(200);
  });

  it('refuses bad input with field messages, never 500', async () => {
    const member: Member = await createMember(t);
    const cases: [unknown, string, string][] = [
      [
        { currentPassword: member.password, newPassword: '12345' },
        'newPassword',
        'Password must be at least 8 characters',
      ],
      [
        { currentPassword: member.password, newPassword: 'x'.repeat(5000) },
        'newPassword',
        'Password must be at most 128 characters',
      ],
      [
        { currentPassword: '', newPassword: 'new-password-1' },
        'currentPassword',
        'This field is required',
      ],
      [{ newPassword: 'new-password-1' }, 'currentPassword', 'This field is required'],
      [
        { currentPassword: 'x'.repeat(2000), newPassword: 'new-password-1' },
        'currentPassword',
        'This text is too long',
      ],
      [
        { currentPassword: 12, newPassword: 'new-password-1' },
        'currentPassword',
        'This field is required',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await change(member.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().error.fields?.[field] ?? res.json().error.message).toBe(message);
    }
    const nul = await change(member.cookie, {
      currentPassword: member.password,
      newPassword: 'new\u0000password',
    });
    expect(nul.statusCode).toBe(400);
    const extra = await change(member.cookie, {
      currentPassword: member.password,
      newPassword: 'new-password-1',
      userId: 'someone-else',
    });
    expect(extra.statusCode).toBe(400);
    // Nothing changed: the old password still signs in.
    expect((await signInAnswer(member.email, member.password)).statusCode).toBe(200);
  });

  it('two changes at once: one wins, the other is refused, and the winner’s password signs in', async () => {
    const member = await createMember(t);
    const [a, b] = await Promise.all([
      change(member.cookie, { currentPassword: member.password, newPassword: 'first-new-pass' }),
      change(member.cookie, { currentPassword: member.password, newPassword: 'second-new-pass' }),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes[0]).toBe(200);
    expect(codes.every((c) => c === 200 || c === 400)).toBe(true);
    const winners = [a, b].filter((r) => r.statusCode === 200).length;
    const first = (await signInAnswer(member.email, 'first-new-pass')).statusCode === 200;
    const second = (await signInAnswer(member.email, 'second-new-pass')).statusCode === 200;
    expect(Number(first) + Number(second)).toBe(1);
    expect(winners).toBeGreaterThanOrEqual(1);
  });
});
