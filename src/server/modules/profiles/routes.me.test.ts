import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createMember } from '../../test/members';
import { updateUser } from './queries';
import { isUsernameConflict } from './service';
import { en, it_, profilesApi, useFixture } from './routes.fixture';

useFixture();

describe('profiles API', async () => {
  const { testApp, inject, database, row, alice, bob, patch } = await profilesApi();

  it('documents its routes in the OpenAPI document', async () => {
    const res = await inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths;
    expect(Object.keys(paths['/api/me'])).toEqual(expect.arrayContaining(['get', 'patch']));
    expect(
      paths['/api/me'].patch.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('username');
    expect(paths['/api/me/avatar']).toHaveProperty('post');
    expect(Object.keys(paths['/api/me'].patch.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '409']),
    );
  });

  describe('GET /api/me', () => {
    it('answers 401 without a session, in the request language', async () => {
      const res = await inject({ method: 'GET', url: '/api/me', headers: en });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: { code: 'unauthorized', message: 'Unauthorized. Please login.' },
      });
      const itRes = await inject({ method: 'GET', url: '/api/me', headers: it_ });
      expect(itRes.statusCode).toBe(401);
      expect(itRes.json().error.message).not.toBe('Unauthorized. Please login.');
    });

    it('answers the signed-in member’s own Me', async () => {
      const res = await inject({
        method: 'GET',
        url: '/api/me',
        headers: { cookie: alice.cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const me = res.json();
      expect(me).toEqual({
        id: alice.id,
        email: 'alice.rossi@example.com',
        emailVerified: true,
        accountStatus: 'verified',
        displayName: 'alice.rossi',
        username: null,
        avatarUrl: null,
        avatarSeed: createHash('sha256').update(`scaffale-identicon:${alice.id}`).digest('hex'),
        firstName: null,
        lastName: null,
        bio: null,
        locationCity: null,
        locationCountry: null,
        preferredLanguage: expect.stringMatching(/^(it|en)$/),
        emailNotifications: true,
        // No username yet: the web asks for one before anything else.
        needsProfile: true,
        needsTerms: false,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    });

    it('reports an unconfirmed e-mail as pending', async () => {
      const pending = await createMember(testApp, { verified: false });
      const res = await inject({
        method: 'GET',
        url: '/api/me',
        headers: { cookie: pending.cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: pending.id,
        emailVerified: false,
        accountStatus: 'pending',
      });
    });

    it('never answers another member’s data', async () => {
      const res = await inject({ method: 'GET', url: '/api/me', headers: { cookie: bob.cookie } });
      expect(res.json().id).toBe(bob.id);
      expect(res.json().email).toBe(bob.email);
      expect(res.body).not.toContain(alice.id);
      expect(res.body).not.toContain('alice');
      // The query string cannot address another member either.
      const other = await inject({
        method: 'GET',
        url: `/api/me?id=${alice.id}&userId=${alice.id}`,
        headers: { cookie: bob.cookie },
      });
      expect(other.json().id).toBe(bob.id);
    });
  });

  describe('PATCH /api/me', () => {
    it('answers 401 "User not authenticated" without a session and changes nothing', async () => {
      const before = await row(alice.id);
      const res = await patch(undefined, { displayName: 'Intruder' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: { code: 'unauthorized', message: 'User not authenticated' },
      });
      const itRes = await patch(undefined, { displayName: 'Intruder' }, it_);
      expect(itRes.json().error.message).toBe('Utente non autenticato');
      expect(await row(alice.id)).toEqual(before);
    });

    it('updates the owner’s profile fields and answers Me', async () => {
      const res = await patch(alice, {
        username: 'Alice_R',
        displayName: '  Alice Rossi ',
        bio: 'Leggo gialli e saggi.',
        firstName: 'Alice',
        lastName: 'Rossi',
        locationCity: 'Milano',
        locationCountry: 'Italia',
        preferredLanguage: 'it',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: alice.id,
        username: 'Alice_R',
        displayName: 'Alice Rossi',
        bio: 'Leggo gialli e saggi.',
        firstName: 'Alice',
        lastName: 'Rossi',
        locationCity: 'Milano',
        locationCountry: 'Italia',
        preferredLanguage: 'it',
      });
      const me = await inject({ method: 'GET', url: '/api/me', headers: { cookie: alice.cookie } });
      expect(me.json().username).toBe('Alice_R');
      expect(me.json().bio).toBe('Leggo gialli e saggi.');
      // Stored the way better-auth's username sign-in looks it up.
      expect((await row(alice.id)).username).toBe('alice_r');
    });

    it('changes only the field sent, and refuses an empty body', async () => {
      const me = () => inject({ method: 'GET', url: '/api/me', headers: { cookie: alice.cookie } });
      const before = (await me()).json();
      const res = await patch(alice, { bio: 'Solo la bio cambia.' });
      expect(res.statusCode, res.body).toBe(200);
      expect((await me()).json()).toEqual({ ...before, bio: 'Solo la bio cambia.' });
      const empty = await patch(alice, {});
      expect(empty.statusCode).toBe(400);
      expect((await me()).json()).toEqual({ ...before, bio: 'Solo la bio cambia.' });
      expect((await patch(alice, { bio: before.bio ?? '' })).statusCode).toBe(200);
    });

    it('turns e-mail notifications off and on again, changing nothing else', async () => {
      const off = await patch(alice, { emailNotifications: false });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ emailNotifications: false, username: 'Alice_R' });
      expect((await row(alice.id)).emailNotifications).toBe(false);
      const bad = await patch(alice, { emailNotifications: 'no' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toEqual({ emailNotifications: 'This value is not valid' });
      const on = await patch(alice, { emailNotifications: true });
      expect(on.json().emailNotifications).toBe(true);
    });

    it('clears optional text with an empty string and leaves absent fields alone', async () => {
      const res = await patch(alice, { bio: '   ' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ bio: null, locationCity: 'Milano', username: 'Alice_R' });
    });

    it('refuses invalid usernames with the username rule’s message in English and Italian', async () => {
      for (const username of ['ab', 'a'.repeat(21), 'has space', 'dash-name', 'àccento', '', 42]) {
        const res = await patch(alice, { username });
        expect(res.statusCode, String(username)).toBe(400);
        expect(res.json().error.fields).toEqual({
          username:
            'Username must be 3-20 characters and only contain letters, numbers, and underscores',
        });
      }
      const itRes = await patch(alice, { username: 'x!' }, it_);
      expect(itRes.statusCode).toBe(400);
      expect(itRes.json().error.fields.username).toBe(
        'Il nome utente deve avere da 3 a 20 caratteri e contenere solo lettere, numeri e trattini bassi',
      );
      expect((await row(alice.id)).username).toBe('alice_r');
    });

    it('refuses a username taken in any letter case with 409', async () => {
      const before = await row(bob.id);
      for (const username of ['alice_r', 'ALICE_R', 'Alice_R']) {
        const res = await patch(bob, { username });
        expect(res.statusCode, username).toBe(409);
        expect(res.json()).toEqual({
          error: {
            code: 'conflict',
            message: 'Username is already taken',
            fields: { username: 'Username is already taken' },
          },
        });
      }
      const itRes = await patch(bob, { username: 'aLiCe_r' }, it_);
      expect(itRes.json().error.fields.username).toBe('Nome utente già in uso');
      expect(await row(bob.id)).toEqual(before);
      expect((await row(alice.id)).displayUsername).toBe('Alice_R');
    });

    it('lets the owner change the case of their own username', async () => {
      const res = await patch(alice, { username: 'ALICE_r' });
      expect(res.statusCode).toBe(200);
      expect(res.json().username).toBe('ALICE_r');
      expect((await patch(alice, { username: 'Alice_R' })).statusCode).toBe(200);
    });

    it('refuses fields the owner may not set, such as another row’s id, and changes nothing', async () => {
      const aliceBefore = await row(alice.id);
      const bobBefore = await row(bob.id);
      for (const body of [
        { id: alice.id, displayName: 'Hijacked' },
        { userId: alice.id, bio: 'Hijacked' },
        { email: 'bob@evil.example' },
        { emailVerified: true },
        { avatarUrl: '/uploads/avatars/someone-elses.webp' },
        { accountStatus: 'verified' },
      ]) {
        const res = await patch(bob, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
      }
      expect(await row(alice.id)).toEqual(aliceBefore);
      expect(await row(bob.id)).toEqual(bobBefore);
    });

    it('refuses bad values with 400 and field messages, never 500', async () => {
      const cases: [object, string, string][] = [
        [{ bio: 'x'.repeat(501) }, 'bio', 'This text is too long'],
        [{ displayName: '' }, 'displayName', 'This field is required'],
        [{ displayName: 'x'.repeat(51) }, 'displayName', 'This text is too long'],
        [{ preferredLanguage: 'fr' }, 'preferredLanguage', 'This value is not valid'],
        [{ firstName: 12 }, 'firstName', 'This value is not valid'],
      ];
      for (const [body, field, message] of cases) {
        const res = await patch(alice, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.fields[field]).toBe(message);
      }
      const notJson = await inject({
        method: 'PATCH',
        url: '/api/me',
        payload: '[1,2',
        headers: { cookie: alice.cookie, 'content-type': 'application/json' },
      });
      expect(notJson.statusCode).toBe(400);
      const array = await patch(alice, [1, 2]);
      expect(array.statusCode).toBe(400);
    });

    it('answers 409, never 500, when members race for one username', async () => {
      const racers = await Promise.all([1, 2, 3].map(() => createMember(testApp)));
      const results = await Promise.all(racers.map((m) => patch(m, { username: 'FirstComer' })));
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409]);
    });

    it('recognises the database’s unique violation on usernames', async () => {
      // The path a lost race takes once the pre-check has passed: the unique index refuses.
      const err = await updateUser(database, bob.id, { username: 'alice_r' }, new Date()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeDefined();
      expect(isUsernameConflict(err)).toBe(true);
      expect(isUsernameConflict(new Error('other'))).toBe(false);
    });
  });
});
