// Who a member is: the name and username they choose (never their e-mail's local part), the
// profile fields they edit, and that every change shows at once wherever others see them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app';
import { createMember, randomClientIp } from '../../test/members';
import { createListing } from '../../test/listings';

describe('names and profile fields', async () => {
  const t = await createTestApp();
  const patch = (cookie: string | undefined, payload: unknown, lang = 'en') =>
    t.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: { 'accept-language': lang, ...(cookie ? { cookie } : {}) },
      payload: payload as object,
    });
  const get = (url: string, cookie?: string) =>
    t.inject({
      method: 'GET',
      url,
      headers: { 'accept-language': 'en', ...(cookie ? { cookie } : {}) },
    });
  const signUp = (payload: object) =>
    t.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: { acceptTerms: true, ...payload },
    });

  it('a sign-up without a name is never named after the e-mail: it is asked for one', async () => {
    const member = await createMember(t, {
      email: 'segreto.privato@example.com',
      displayName: '',
    });
    const me = (await get('/api/me', member.cookie)).json();
    expect(me.displayName).toBe('');
    expect(me.needsProfile).toBe(true);
    const profile = await get(`/api/users/${member.id}/profile`);
    expect(profile.statusCode).toBe(200);
    expect(profile.body).not.toContain('segreto');

    const done = await patch(member.cookie, { displayName: 'Sara Segreti', username: 'sara_s' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      displayName: 'Sara Segreti',
      username: 'sara_s',
      needsProfile: false,
    });
  });

  it('sign-up with a display name and a username: nothing left to ask', async () => {
    const member = await createMember(t, { displayName: 'Nadia Nomi', username: 'Nadia_N' });
    const me = (await get('/api/me', member.cookie)).json();
    expect(me).toMatchObject({
      displayName: 'Nadia Nomi',
      username: 'Nadia_N',
      needsProfile: false,
    });
  });

  it('sign-up refuses a username taken in another letter case, and a bad one', async () => {
    await createMember(t, { username: 'Casetta' });
    const taken = await signUp({
      email: 'other.casetta@example.com',
      password: 'secret-123',
      name: 'Other',
      username: 'CASETTA',
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.fields.username).toBe('Username is already taken');
    const bad = await signUp({
      email: 'bad.name@example.com',
      password: 'secret-123',
      name: 'Bad',
      username: 'no spaces',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.username).toBe(
      'Username must be 3-20 characters and only contain letters, numbers, and underscores',
    );
  });

  it('bio: 500 characters is fine, 501 or a megabyte is refused, NUL bytes too; nothing changes', async () => {
    const member = await createMember(t);
    const ok = await patch(member.cookie, { bio: 'b'.repeat(500), locationCity: 'Torino' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().bio).toHaveLength(500);
    for (const payload of [
      { bio: 'b'.repeat(501) },
      { bio: 'x'.repeat(1_000_000) },
      { locationCity: 'c'.repeat(101) },
      { locationCountry: 'c'.repeat(101) },
      { bio: 'nul \u0000 byte' },
      { displayName: 'Nul\u0000Name' },
      { username: 'nul\u0000name' },
    ]) {
      const res = await patch(member.cookie, payload);
      expect([400, 413], JSON.stringify(payload).slice(0, 60)).toContain(res.statusCode);
      expect(res.json().error.message).toBeTruthy();
    }
    const me = (await get('/api/me', member.cookie)).json();
    expect(me.bio).toHaveLength(500);
    expect(me.locationCity).toBe('Torino');
  });

  it('a display name of invisible controls only is refused; controls inside are removed', async () => {
    const member = await createMember(t);
    const empty = await patch(member.cookie, { displayName: '\u202e\u200b' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.displayName).toBe('This field is required');
    const cleaned = await patch(member.cookie, { displayName: 'An\u202ena' });
    expect(cleaned.json().displayName).toBe('Anna');
  });

  it('another member cannot change someone’s profile: the body cannot name them', async () => {
    const [owner, other] = [
      await createMember(t, { displayName: 'Olga Owner' }),
      await createMember(t),
    ];
    const res = await patch(other.cookie, { id: owner.id, displayName: 'Hijacked' });
    expect(res.statusCode).toBe(400);
    expect((await get(`/api/users/${owner.id}/profile`)).json().displayName).toBe('Olga Owner');
  });

  it('every change shows at once on the public profile and the book page', async () => {
    const member = await createMember(t, { displayName: 'Before Name', username: 'before_nm' });
    const listing = await createListing(t, member);
    const changed = await patch(member.cookie, {
      displayName: 'After Name',
      username: 'After_NM',
      bio: 'Collect old maps.',
      locationCity: 'Bologna',
      locationCountry: 'Italia',
    });
    expect(changed.statusCode).toBe(200);
    const profile = (await get(`/api/users/${member.id}/profile`)).json();
    expect(profile).toMatchObject({
      displayName: 'After Name',
      username: 'After_NM',
      bio: 'Collect old maps.',
      locationCity: 'Bologna',
      locationCountry: 'Italia',
    });
    const book = (await get(`/api/listings/${listing.id}`)).json();
    expect(JSON.stringify(book)).toContain('After Name');
    expect(JSON.stringify(book)).not.toContain('Before Name');
  });

  it('migration 0027 replaces names that were only the e-mail’s local part', async () => {
    await t.database.query(
      `insert into users (id, email, display_name, username, display_username, account_status) values
         ('m27-a', 'Carla.Conti@example.com', 'carla.conti', null, null, 'active'),
         ('m27-b', 'dino@example.com', 'Dino', 'dino_d', 'Dino_D', 'active'),
         ('m27-c', 'elsa@example.com', 'Elsa Esposito', null, null, 'active'),
         ('m27-d', 'gone@example.invalid', '', null, null, 'deleted')`,
    );
    const sql = readFileSync(
      new URL('../../db/migrations/0027_names_not_emails.sql', import.meta.url),
      'utf8',
    );
    await t.database.exec(sql);
    const rows = await t.database.query<{ id: string; display_name: string }>(
      `select id, display_name from users where id like 'm27-%' order by id`,
    );
    // Carla has no username: a neutral handle from her id (never her e-mail), until she chooses.
    expect(rows).toEqual([
      { id: 'm27-a', display_name: expect.stringMatching(/^lettore_[0-9a-f]{6}$/) },
      { id: 'm27-b', display_name: 'Dino_D' },
      { id: 'm27-c', display_name: 'Elsa Esposito' },
      { id: 'm27-d', display_name: '' },
    ]);
    expect(rows[0]!.display_name).not.toContain('carla');
  });

  it('a member without reviews is a new member on the profile: no figure, never 5.0', async () => {
    const member = await createMember(t);
    const profile = (await get(`/api/users/${member.id}/profile`)).json();
    expect(profile.rating).toBeNull();
    expect(profile.reviewCount).toBe(0);
  });
});
