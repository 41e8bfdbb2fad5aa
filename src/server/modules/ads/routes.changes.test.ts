import { describe, expect, it } from 'vitest';
import { validAd } from '../../test/ads';
import {
  clock,
  t,
  ada,
  bruno,
  api,
  deleted,
  call,
  adRow,
  adCount,
  useFixture,
} from './routes.fixture';

useFixture();

describe('changing an advertisement', () => {
  it('changes only the fields sent; null clears an optional one', async () => {
    const id = await api.createAd(
      ada,
      { subtitle: 'Sub', publisher: 'Bompiani', bookPrice: 10 },
      false,
    );
    const res = await call(ada, 'PATCH', `/api/ads/${id}`, {
      title: 'Il pendolo di Foucault',
      subtitle: null,
      keywords: 'templari, , complotto',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().ad).toMatchObject({
      title: 'Il pendolo di Foucault',
      subtitle: null,
      publisher: 'Bompiani',
      bookPrice: 10,
      description: validAd().description,
      keywords: ['templari', 'complotto'],
      status: 'draft',
    });
    expect(new Date(res.json().ad.updatedAt) >= new Date(res.json().ad.createdAt)).toBe(true);
  });

  it('checks the end date against the stored start date', async () => {
    const id = await api.createAd(ada, { startDate: '2026-04-01' }, false);
    const res = await call(ada, 'PATCH', `/api/ads/${id}`, { endDate: '2026-03-31' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      endDate: 'The end date cannot be before the start date',
    });
    const bad = await call(ada, 'PATCH', `/api/ads/${id}`, { title: '', genre: null });
    expect(bad.json().error.fields).toEqual({
      title: 'Title is required',
      genre: 'Please select a genre',
    });
  });

  it('refuses anonymous (401) and another member (404), and nothing changes', async () => {
    const id = await api.createAd(ada, {}, true);
    const before = await adRow(id);
    for (const [who, status] of [
      [null, 401],
      [bruno, 404],
    ] as const) {
      expect((await call(who, 'PATCH', `/api/ads/${id}`, { title: 'Hacked' })).statusCode).toBe(
        status,
      );
      expect((await call(who, 'POST', `/api/ads/${id}/pause`)).statusCode).toBe(status);
      expect((await call(who, 'DELETE', `/api/ads/${id}`)).statusCode).toBe(status);
      expect((await call(who, 'GET', `/api/ads/${id}/analytics`)).statusCode).toBe(status);
      expect((await call(who, 'GET', `/api/ads/${id}/analytics.csv`)).statusCode).toBe(status);
    }
    const res = await call(bruno, 'PATCH', `/api/ads/${id}`, { title: 'Hacked' });
    expect(res.json().error.message).toBe('Advertisement not found');
    expect(await adRow(id)).toEqual(before);
  });

  it('deletes my ad, 404 the second time and for unknown ids', async () => {
    const id = await api.createAd(ada, {
      coverImageUrl: '/uploads/covers/ada/0123456789abcdef0123456789abcdef.webp',
      promotionalImages: [
        '/uploads/covers/ada/fedcba9876543210fedcba9876543210.webp',
        '/uploads/covers/ada/00112233445566778899aabbccddeeff.webp',
      ],
    });
    // Another ad shows the same upload: that file stays.
    await api.createAd(ada, {
      coverImageUrl: '/uploads/covers/ada/fedcba9876543210fedcba9876543210.webp',
    });
    // Ada uploaded all three (only the uploader's change releases a file).
    await t.database.query(
      `insert into uploads (url, owner_id)
       values ('/uploads/covers/ada/0123456789abcdef0123456789abcdef.webp', $1),
              ('/uploads/covers/ada/fedcba9876543210fedcba9876543210.webp', $1),
              ('/uploads/covers/ada/00112233445566778899aabbccddeeff.webp', $1)`,
      [ada.id],
    );
    deleted.length = 0;
    expect((await call(ada, 'DELETE', `/api/ads/${id}`)).statusCode).toBe(204);
    expect(deleted.sort()).toEqual(
      [
        '/uploads/covers/ada/0123456789abcdef0123456789abcdef.webp',
        '/uploads/covers/ada/00112233445566778899aabbccddeeff.webp',
      ].sort(),
    );
    expect((await call(ada, 'DELETE', `/api/ads/${id}`)).statusCode).toBe(404);
    expect((await call(ada, 'DELETE', '/api/ads/not-a-uuid')).statusCode).toBe(404);
    expect(await adCount()).toBe(1);
  });
});

describe('activate, pause and resume', () => {
  it('moves draft → active → paused → active, and refuses the other moves with a reason', async () => {
    const id = await api.createAd(ada, {}, false);
    const move = (action: string) => call(ada, 'POST', `/api/ads/${id}/${action}`);

    let res = await move('pause');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Only an active advertisement can be paused');
    res = await move('resume');
    expect(res.json().error.message).toBe('Only a paused advertisement can be resumed');

    res = await move('activate');
    expect(res.statusCode).toBe(200);
    expect(res.json().ad).toMatchObject({ status: 'active', running: true });
    res = await move('activate');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Only a draft can be activated');

    res = await move('pause');
    expect(res.json().ad).toMatchObject({ status: 'paused', running: false });
    res = await move('resume');
    expect(res.json().ad).toMatchObject({ status: 'active', running: true });

    await t.database.query(`update book_advertisements set status = 'rejected' where id = $1`, [
      id,
    ]);
    res = await call(ada, 'POST', `/api/ads/${id}/resume`, undefined, { 'accept-language': 'it' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(
      'Questo annuncio è stato rifiutato e non può essere pubblicato',
    );
  });

  it('will not activate or resume an ad whose end date has passed', async () => {
    const id = await api.createAd(ada, { endDate: '2026-03-09' }, false);
    const res = await call(ada, 'POST', `/api/ads/${id}/activate`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(
      "This advertisement's end date has passed: change the end date to run it again",
    );
    expect((await adRow(id)).status).toBe('draft');
  });
});

describe('the active rule at the date edges (UTC days, injected clock)', () => {
  it('runs from the first second of the start day to the last second of the end day', async () => {
    const id = await api.createAd(ada, { startDate: '2026-03-11', endDate: '2026-03-12' });
    const seen = async () => {
      const ad = (await call(bruno, 'GET', `/api/ads/${id}`)).statusCode === 200;
      const inSlot = (await api.slot()).some((a) => a.id === id);
      const listed = (await call(null, 'GET', '/api/ads'))
        .json()
        .items.some((a: { id: string }) => a.id === id);
      expect(inSlot).toBe(ad);
      expect(listed).toBe(ad);
      return ad;
    };
    const shown = async () => (await call(ada, 'GET', `/api/ads/${id}`)).json().ad;

    clock.set('2026-03-10T23:59:59Z');
    expect(await seen()).toBe(false); // starts tomorrow
    expect(await shown()).toMatchObject({ status: 'active', running: false });
    clock.set('2026-03-11T00:00:00Z');
    expect(await seen()).toBe(true);
    clock.set('2026-03-12T23:59:59Z');
    expect(await seen()).toBe(true); // the end day is included
    clock.set('2026-03-13T00:00:00Z');
    expect(await seen()).toBe(false);
    expect(await shown()).toMatchObject({ status: 'expired', running: false });
  });

  it('runs with no dates at all', async () => {
    const id = await api.createAd(ada);
    clock.set('2030-01-01T00:00:00Z');
    expect((await call(bruno, 'GET', `/api/ads/${id}`)).json().ad).toMatchObject({
      status: 'active',
      running: true,
    });
  });
});

describe('the ad page', () => {
  it('shows a running ad to anyone; drafts and paused ads only to their author', async () => {
    const draft = await api.createAd(ada, {}, false);
    const running = await api.createAd(ada);
    expect((await call(null, 'GET', `/api/ads/${running}`)).statusCode).toBe(200);
    expect((await call(bruno, 'GET', `/api/ads/${running}`)).json().ad.author.bio).toBe(
      'Scrivo gialli.',
    );
    expect((await call(null, 'GET', `/api/ads/${draft}`)).statusCode).toBe(404);
    expect((await call(bruno, 'GET', `/api/ads/${draft}`)).statusCode).toBe(404);
    expect((await call(ada, 'GET', `/api/ads/${draft}`)).json().ad.status).toBe('draft');
    await call(ada, 'POST', `/api/ads/${running}/pause`);
    expect((await call(bruno, 'GET', `/api/ads/${running}`)).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/ads/nope')).statusCode).toBe(404);
  });
});
