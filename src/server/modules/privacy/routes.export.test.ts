import { TERMS_VERSION } from '@shared/constants';
import { describe, expect, it } from 'vitest';
import {
  t,
  req,
  zef,
  bea,
  carlo,
  dario,
  zefName,
  zefUsername,
  avatarUrl,
  ids,
  zefMessage,
  beaMessage,
  useFixture,
} from './routes.fixture';

useFixture();

describe('the API document', () => {
  it('describes both routes with their errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/me/export']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/me/export'].get.responses)).toEqual(['405']);
    expect(Object.keys(doc.paths['/api/me/delete']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/me/delete'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '429']),
    );
  });
});

describe('anonymous visitors', () => {
  it('get 401 from both routes', async () => {
    expect((await req('POST', '/api/me/export')).statusCode).toBe(401);
    expect((await req('GET', '/api/me/delete')).statusCode).toBe(401);
    const del = await req('POST', '/api/me/delete', undefined, { password: 'x' });
    expect(del.statusCode).toBe(401);
    expect(del.json().error.code).toBe('unauthorized');
  });
});

describe('download my data', () => {
  it('answers an attachment with every section of the member’s own data', async () => {
    const res = await req('POST', '/api/me/export', zef);
    expect(res.statusCode, res.body).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="scaffale-${zefUsername}-${day}.json"`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const data = res.json();
    expect(data.profile).toMatchObject({
      id: zef.id,
      email: zef.email,
      displayName: zefName,
      username: zefUsername,
      avatarUrl,
      bio: 'Lettore di Calvino',
      locationCity: 'Pavia',
      // The terms accepted at sign-up, and which.
      termsVersion: TERMS_VERSION,
      termsAcceptedAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(data.account.settings).toHaveProperty('preferredLanguage');
    expect(data.account.signInMethods).toEqual([
      expect.objectContaining({ provider: 'credential' }),
    ]);
    expect(data.account.sessions.length).toBeGreaterThan(0);
    expect(data.listings.map((l: { id: string }) => l.id).sort()).toEqual(
      [ids.soldListing, ids.openListing].sort(),
    );
    const beaPublic = (await req('GET', '/api/me', bea)).json().username;
    expect(data.transactions).toEqual([
      expect.objectContaining({
        id: ids.transactionId,
        role: 'seller',
        listingTitle: 'Le città invisibili',
        otherParty: beaPublic,
      }),
    ]);
    expect(data.messages.map((m: { content: string }) => m.content)).toContain(zefMessage);
    expect(data.messages.every((m: { conversationId: string }) => m.conversationId)).toBe(true);
    expect(data.connections).toEqual([expect.objectContaining({ status: 'accepted' })]);
    const darioPublic = (await req('GET', '/api/me', dario)).json().username;
    expect(data.blocks).toEqual([expect.objectContaining({ member: darioPublic })]);
    expect(data.posts.map((p: { id: string }) => p.id)).toEqual([ids.postOfZef]);
    expect(data.comments.map((c: { content: string }) => c.content)).toEqual(['Commento di Zef']);
    expect(data.reactions).toEqual([
      expect.objectContaining({ target: 'post', id: ids.postOfBea }),
    ]);
    expect(data.wishlists[0].items).toHaveLength(1);
    expect(data.watches).toEqual([
      expect.objectContaining({ listingId: ids.beaListing, title: 'Il barone rampante' }),
    ]);
    expect(data.holiday).toMatchObject({ autoReply: null });
    expect(data.savedSearches.searches).toEqual([
      expect.objectContaining({
        name: 'Calvino economico',
        q: 'barone',
        maxPrice: 20,
        notify: true,
      }),
    ]);
    expect(data.savedSearches.matches).toEqual([
      expect.objectContaining({
        listingId: ids.beaFound,
        title: 'Il barone rampante, tascabile',
        searchName: 'Calvino economico',
      }),
    ]);
    expect(JSON.stringify(data)).not.toContain('Di Bea');
    expect(data.reviews.written).toHaveLength(1);
    expect(data.reviews.received).toEqual([
      expect.objectContaining({ by: beaPublic, text: 'Recensione di bea per zef' }),
    ]);
    expect(data.advertisements).toEqual([
      expect.objectContaining({
        id: ids.adId,
        title: 'Il mio romanzo',
        dailyStats: [{ day: '2026-11-01', impressions: 40, clicks: 3, conversions: 1 }],
      }),
    ]);
    expect(data.notifications.length).toBeGreaterThan(0);
    expect(data.reportsFiled).toEqual([
      expect.objectContaining({ kind: 'profile', itemId: carlo.id }),
    ]);
  });

  it('holds nothing private of another member', async () => {
    const res = await req('POST', '/api/me/export', zef);
    const text = res.body;
    for (const secret of [bea.email, carlo.email, beaMessage, 'Commento di Bea', 'Post di Bea'])
      expect(text).not.toContain(secret);
    // Nor credentials of the member themselves.
    const [session] = await t.database.query<{ token: string }>(
      'select token from sessions where user_id = $1 limit 1',
      [zef.id],
    );
    const [hash] = await t.database.query<{ password: string }>(
      `select password from accounts where user_id = $1`,
      [zef.id],
    );
    expect(text).not.toContain(session.token);
    expect(text).not.toContain(hash.password);
  });

  it('gives another member only their own archive', async () => {
    const data = (await req('POST', '/api/me/export', bea)).json();
    expect(data.profile.email).toBe(bea.email);
    expect(JSON.stringify(data)).not.toContain(zef.email);
    const texts = data.messages.filter((m: { type: string }) => m.type === 'text');
    expect(texts.map((m: { content: string }) => m.content)).toEqual([beaMessage]);
  });
});
