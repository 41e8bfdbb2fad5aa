import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { createTestApp } from '../../test/app';
import { createMember, randomClientIp, type Member } from '../../test/members';
import { users } from '../../db/schema';
import { createStorage } from '../storage';
import { listMigrations } from '../../db/migrate';

const uploads = mkdtempSync(join(tmpdir(), 'scaffale-auth-surface-'));
afterAll(() => rmSync(uploads, { recursive: true, force: true }));

const RLO = '\u202E';

/** An attacker's view of better-auth's surface: what /api/auth/* lets a member change. */
describe('better-auth surface: only the endpoints the app uses, only the fields it allows', async () => {
  const testApp = await createTestApp({ deps: { storage: createStorage({ rootDir: uploads }) } });
  const { inject, database } = testApp;
  const call = (o: InjectOptions) =>
    inject({
      remoteAddress: randomClientIp(),
      ...o,
      headers: { 'accept-language': 'en', ...o.headers },
    });
  const as = (member: Member, o: InjectOptions) =>
    call({ ...o, headers: { cookie: member.cookie, ...o.headers } });
  const row = async (id: string) =>
    (await database.db.select().from(users).where(eq(users.id, id)))[0];
  const usersWithEmail = (email: string) =>
    database.db
      .select()
      .from(users)
      .where(sql`${users.email} = ${email}::citext`);

  const victim = await createMember(testApp, { username: 'Vittoria' });
  const attacker = await createMember(testApp);

  const uploadAvatar = async (member: Member) => {
    const boundary = `----scaffale${randomBytes(8).toString('hex')}`;
    const image = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 40, b: 40 } },
    })
      .png()
      .toBuffer();
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await as(member, {
      method: 'POST',
      url: '/api/me/avatar',
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().avatarUrl as string;
  };

  it("update-user is gone: a member cannot point their avatar at another member's file and have it deleted", async () => {
    const victimAvatar = await uploadAvatar(victim);
    const before = await row(attacker.id);
    const res = await as(attacker, {
      method: 'POST',
      url: '/api/auth/update-user',
      payload: { image: victimAvatar },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    expect((await row(attacker.id)).avatarUrl).toBe(before.avatarUrl);
    // The attacker's next upload replaces only their own file; the victim's is still served.
    await uploadAvatar(attacker);
    expect((await call({ method: 'GET', url: victimAvatar })).statusCode).toBe(200);
    expect((await row(victim.id)).avatarUrl).toBe(victimAvatar);
  });

  it('update-user cannot take a display username, an empty or a 300-character name', async () => {
    const before = await row(attacker.id);
    for (const payload of [
      { displayUsername: 'Vittoria' },
      { username: 'vittoria2', displayUsername: 'Vittoria' },
      { name: '' },
      { name: 'x'.repeat(300) },
    ]) {
      const res = await as(attacker, { method: 'POST', url: '/api/auth/update-user', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(404);
    }
    expect(await row(attacker.id)).toEqual(before);
  });

  it('every better-auth endpoint the app does not use answers 404 in our format', async () => {
    const unused: [string, string][] = [
      ['POST', '/api/auth/change-email'],
      ['POST', '/api/auth/change-password'],
      ['POST', '/api/auth/verify-password'],
      ['POST', '/api/auth/delete-user'],
      ['GET', '/api/auth/delete-user/callback'],
      ['POST', '/api/auth/is-username-available'],
      ['POST', '/api/auth/set-password'],
      ['GET', '/api/auth/list-sessions'],
      ['POST', '/api/auth/revoke-session'],
      ['POST', '/api/auth/revoke-sessions'],
      ['POST', '/api/auth/revoke-other-sessions'],
      ['GET', '/api/auth/get-session'],
      ['GET', '/api/auth/list-accounts'],
      ['POST', '/api/auth/link-social'],
      ['POST', '/api/auth/unlink-account'],
      ['POST', '/api/auth/get-access-token'],
      ['GET', '/api/auth/reset-password/some-token'],
      ['GET', '/api/auth/update-user'],
      ['GET', '/api/auth/ok'],
    ];
    for (const [method, url] of unused) {
      const res = await as(attacker, {
        method: method as 'GET' | 'POST',
        url,
        ...(method === 'POST'
          ? { payload: { username: 'x', password: 'y', newPassword: 'z' } }
          : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code, `${method} ${url}`).toBe('not_found');
    }
    // The attacker still has their password and account.
    expect(await row(attacker.id)).toBeDefined();
  });

  it('sign-up refuses the fields the app owns, and creates nothing', async () => {
    for (const extra of [
      { image: '/uploads/avatars/someone-elses.webp' },
      { displayUsername: 'Vittoria' },
      { preferredLanguage: 'en' },
      { emailVerified: true },
      { accountStatus: 'active' },
    ]) {
      const email = `extra-${randomBytes(4).toString('hex')}@example.com`;
      const res = await call({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { acceptTerms: true, email, password: 'long-enough', name: '', ...extra },
      });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(Object.keys(res.json().error.fields)).toEqual(Object.keys(extra));
      expect(await usersWithEmail(email)).toHaveLength(0);
    }
  });

  it("sign-up cannot take another member's username in another letter case", async () => {
    const email = `imposter-${randomBytes(4).toString('hex')}@example.com`;
    const res = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { acceptTerms: true, email, password: 'long-enough', username: 'VITTORIA' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'username_is_already_taken',
      message: 'Username is already taken',
    });
    expect(await usersWithEmail(email)).toHaveLength(0);
  });

  it('a username chosen at sign-up is shown exactly, and is the only @name shown', async () => {
    const member = await createMember(testApp, { username: 'Lettrice_7' });
    const stored = await row(member.id);
    expect(stored.displayUsername ?? stored.username).toBe('Lettrice_7');
    const me = await as(member, { method: 'GET', url: '/api/me' });
    expect(me.json().username).toBe('Lettrice_7');
  });

  it('the database refuses a display username that is not the username itself', async () => {
    await expect(
      database.db
        .update(users)
        .set({ displayUsername: 'Vittoria' })
        .where(eq(users.id, attacker.id)),
    ).rejects.toThrow();
    await expect(
      database.db.update(users).set({ displayUsername: 'VITTORIA' }).where(eq(users.id, victim.id)),
    ).resolves.toBeDefined();
  });

  it('the migration gives an impersonating display username back its own username, keeping every row', async () => {
    const [migration] = listMigrations().filter((m) => m.name.startsWith('0021_account_names'));
    const faker = await createMember(testApp, { username: 'Faker_1' });
    const nameless = await createMember(testApp);
    const count = async () =>
      (await database.query<{ n: number }>('select count(*)::int as n from users'))[0].n;
    // As before the fix: the constraint was not there and better-auth wrote what it was given.
    await database.exec('alter table users drop constraint users_display_username_is_username');
    await database.query(`update users set display_username = 'Vittoria' where id = $1`, [
      faker.id,
    ]);
    await database.query(
      `update users set display_username = 'vittoria', display_name = $2 where id = $1`,
      [nameless.id, `${RLO}Vittoria`],
    );
    const before = await count();
    await database.exec(migration.sql);
    expect(await count()).toBe(before);
    expect(await row(faker.id)).toMatchObject({ username: 'Faker_1', displayUsername: 'Faker_1' });
    expect(await row(nameless.id)).toMatchObject({
      username: null,
      displayUsername: null,
      displayName: 'Vittoria',
    });
    expect((await row(victim.id)).displayUsername).toBe('VITTORIA');
  });

  describe('names: the app limits and no invisible controls, wherever they are set', () => {
    it('sign-up: a 300-character name is refused, an empty one stays empty (never the e-mail local part)', async () => {
      const email = `long-${randomBytes(4).toString('hex')}@example.com`;
      const long = await call({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { acceptTerms: true, email, password: 'long-enough', name: 'x'.repeat(300) },
      });
      expect(long.statusCode).toBe(400);
      expect(long.json().error).toMatchObject({
        code: 'validation_failed',
        fields: { name: 'This text is too long' },
      });
      expect(await usersWithEmail(email)).toHaveLength(0);
      const blank = await call({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { acceptTerms: true, email, password: 'long-enough', name: `  ${RLO}\u200B ` },
      });
      expect(blank.statusCode).toBe(200);
      const [created] = await usersWithEmail(email);
      expect(created.displayName).toBe('');
    });

    it('sign-up and the profile strip a right-to-left override from the display name', async () => {
      const email = `rtl-${randomBytes(4).toString('hex')}@example.com`;
      const res = await call({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { acceptTerms: true, email, password: 'long-enough', name: `Anna${RLO}gepj.exe` },
      });
      expect(res.statusCode).toBe(200);
      expect((await usersWithEmail(email))[0].displayName).toBe('Annagepj.exe');

      const patch = await as(attacker, {
        method: 'PATCH',
        url: '/api/me',
        payload: {
          displayName: `\u2066Bruno${RLO}\u200F`,
          firstName: `Bru${RLO}no`,
          lastName: '\u202D',
        },
      });
      expect(patch.statusCode).toBe(200);
      expect(patch.json()).toMatchObject({
        displayName: 'Bruno',
        firstName: 'Bruno',
        lastName: null,
      });
      const me = await as(attacker, { method: 'GET', url: '/api/me' });
      expect(me.json().displayName).toBe('Bruno');
    });

    it('the profile refuses a display name made only of controls, or one over 50 characters', async () => {
      const before = await row(attacker.id);
      for (const displayName of [`${RLO}\u2066\u200B`, '   ', 'x'.repeat(51)]) {
        const res = await as(attacker, {
          method: 'PATCH',
          url: '/api/me',
          payload: { displayName },
        });
        expect(res.statusCode, JSON.stringify(displayName)).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
      }
      expect((await row(attacker.id)).displayName).toBe(before.displayName);
    });
  });
});
