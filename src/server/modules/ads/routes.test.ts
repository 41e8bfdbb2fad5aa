import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStorage } from '../../platform/storage';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, type Member } from '../../test/members';
import { adsClient, testClock, validAd } from './test-support';

const clock = testClock('2026-03-10T10:00:00Z');
let t: TestApp;
let ada: Member; // an author
let bruno: Member; // another member
let api: ReturnType<typeof adsClient>;

/** Storage that records what the app asks it to delete. */
const deleted: string[] = [];
const realStorage = createStorage({ rootDir: '/tmp/scaffale-test-data/uploads-ads' });
const storage = {
  ...realStorage,
  async delete(url: string) {
    deleted.push(url);
    return true;
  },
};

beforeAll(async () => {
  t = await createTestApp({
    deps: { now: clock.now, storage },
    config: { adsServingCacheMs: 0 },
  });
  api = adsClient(t, clock.now);
  [ada, bruno] = await Promise.all([
    createMember(t, { username: 'ada_writes', displayName: 'Ada Autrice' }),
    createMember(t, { username: 'bruno_reads', displayName: 'Bruno Lettore' }),
  ]);
  await t.database.query(`update users set bio = 'Scrivo gialli.' where id = $1`, [ada.id]);
});

beforeEach(async () => {
  clock.set('2026-03-10T10:00:00Z');
  await t.database.query('delete from book_advertisements');
});

const { call } = {
  call: (...args: Parameters<ReturnType<typeof adsClient>['call']>) => api.call(...args),
};
const adRow = async (id: string) =>
  (
    await t.database.query<Record<string, unknown>>(
      'select title, status, description from book_advertisements where id = $1',
      [id],
    )
  )[0];
const adCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from book_advertisements'))[0]
    .n;

describe('creating an advertisement', () => {
  it('saves a draft with every field, the defaults and the author joined', async () => {
    const res = await call(ada, 'POST', '/api/ads', {
      ...validAd(),
      subtitle: '  Romanzo  ',
      isbn13: '978-88-452-4673-9',
      publisher: 'Bompiani',
      publicationYear: '1980',
      pageCount: 503,
      adType: 'spotlight',
      targetAudience: 'lettori di gialli, , studenti ',
      coverImageUrl: '/uploads/covers/x/0123456789abcdef0123456789abcdef.webp',
      promotionalImages: ['/uploads/covers/x/fedcba9876543210fedcba9876543210.webp'],
      trailerVideoUrl: 'https://video.example.org/trailer',
      sampleChapterUrl: 'https://example.org/capitolo-1.pdf',
      authorWebsiteUrl: 'https://ada.example.org',
      socialLinks: 'https://instagram.com/ada, https://x.com/ada',
      purchaseLinks: {
        amazon: 'https://www.amazon.it/dp/8845246736',
        bookshop: '',
        barnes_noble: 'https://www.barnesandnoble.com/w/x',
        author_website: 'https://ada.example.org/compra',
      },
      bookPrice: '14.90',
      currency: 'GBP',
      dailyBudget: 2.5,
      totalBudget: '40',
      startDate: '2026-03-01',
      endDate: '2026-04-30',
      // Ignored: new ads are drafts.
      status: 'active',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { ad } = res.json();
    expect(ad).toMatchObject({
      authorId: ada.id,
      author: {
        id: ada.id,
        displayName: 'Ada Autrice',
        username: 'ada_writes',
        avatarUrl: null,
        bio: 'Scrivo gialli.',
      },
      title: 'Il nome della rosa',
      subtitle: 'Romanzo',
      genre: 'mystery',
      language: 'en',
      isbn13: '9788845246739',
      publisher: 'Bompiani',
      publicationYear: 1980,
      pageCount: 503,
      adType: 'spotlight',
      keywords: ['medieval', 'monastery', 'detective'],
      targetAudience: ['lettori di gialli', 'studenti'],
      coverImageUrl: '/uploads/covers/x/0123456789abcdef0123456789abcdef.webp',
      promotionalImages: ['/uploads/covers/x/fedcba9876543210fedcba9876543210.webp'],
      socialLinks: ['https://instagram.com/ada', 'https://x.com/ada'],
      purchaseLinks: {
        amazon: 'https://www.amazon.it/dp/8845246736',
        barnes_noble: 'https://www.barnesandnoble.com/w/x',
        author_website: 'https://ada.example.org/compra',
      },
      bookPrice: 14.9,
      currency: 'GBP',
      dailyBudget: 2.5,
      totalBudget: 40,
      status: 'draft',
      running: false,
      startDate: '2026-03-01',
      endDate: '2026-04-30',
      averageRating: 0,
      reviewCount: 0,
      viewCount: 0,
      clickCount: 0,
    });
    expect(ad.purchaseLinks).not.toHaveProperty('bookshop');
  });

  it('applies the spec defaults: banner, English, EUR, budgets 0', async () => {
    const res = await call(ada, 'POST', '/api/ads', {
      title: 'T',
      description: 'D',
      genre: 'poetry',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().ad).toMatchObject({
      adType: 'banner',
      language: 'en',
      currency: 'EUR',
      dailyBudget: 0,
      totalBudget: 0,
      keywords: [],
      targetAudience: [],
      purchaseLinks: {},
      publicationYear: null,
      status: 'draft',
    });
  });

  it('answers every validation message at once, in the reader’s language', async () => {
    const res = await call(ada, 'POST', '/api/ads', {
      title: '  ',
      description: '',
      genre: 'cookbooks',
      adType: 'popup',
      language: 'klingon',
      isbn13: '9788845246733',
      publicationYear: 1449,
      pageCount: 0,
      coverImageUrl: 'javascript:alert(1)',
      trailerVideoUrl: 'not a url',
      sampleChapterUrl: 'ftp://example.org/x',
      purchaseLinks: { amazon: 'amazon' },
      bookPrice: -1,
      currency: 'JPY',
      dailyBudget: 1.234,
      totalBudget: -5,
      startDate: '2026-02-30',
      keywords: Array.from({ length: 21 }, (_, i) => `k${i}`),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'validation_failed',
      message: 'Some fields are not valid.',
      fields: {
        title: 'Title is required',
        description: 'Description is required',
        genre: 'Please select a genre',
        adType: 'Please select an ad type',
        language: 'Please select a language',
        isbn13: 'ISBN-13 must be 13 digits starting with 978 or 979, with a valid check digit',
        publicationYear: 'Publication year must be between 1450 and two years from now',
        pageCount: 'Page count must be at least 1',
        coverImageUrl: 'Upload the image here: only images uploaded to Scaffale can be used',
        trailerVideoUrl: 'Please enter a valid web address starting with https://',
        sampleChapterUrl: 'Please enter a valid web address starting with https://',
        'purchaseLinks.amazon': 'Please enter a valid web address starting with https://',
        bookPrice: 'Price cannot be negative',
        currency: 'Please select a currency (EUR, USD, GBP, CAD or AUD)',
        dailyBudget: 'Use at most 2 decimals (steps of 0.01)',
        totalBudget: 'Budget cannot be negative',
        startDate: 'Enter a valid date',
        keywords: 'At most 20 keywords',
      },
    });
    expect(await adCount()).toBe(0);
  });

  it('tells each remaining rule apart, in Italian too', async () => {
    const year = new Date().getFullYear();
    const cases: Array<[object, string, string, string]> = [
      [
        { publicationYear: year + 3 },
        'publicationYear',
        'Publication year must be between 1450 and two years from now',
        "L'anno di pubblicazione deve essere compreso tra il 1450 e due anni da oggi",
      ],
      [
        { publicationYear: 1999.5 },
        'publicationYear',
        'Publication year must be a whole number',
        "L'anno di pubblicazione deve essere un numero intero",
      ],
      [
        { pageCount: 'many' },
        'pageCount',
        'Page count must be a whole number',
        'Il numero di pagine deve essere un numero intero',
      ],
      [
        { bookPrice: 'free' },
        'bookPrice',
        'Price must be a number',
        'Il prezzo deve essere un numero',
      ],
      [
        { dailyBudget: 'lots' },
        'dailyBudget',
        'Budget must be a number',
        'Il budget deve essere un numero',
      ],
      [
        { totalBudget: 2_000_000 },
        'totalBudget',
        'This amount is too high',
        'Questo importo è troppo alto',
      ],
      [
        { startDate: '2026-05-02', endDate: '2026-05-01' },
        'endDate',
        'The end date cannot be before the start date',
        'La data di fine non può precedere la data di inizio',
      ],
      [
        { keywords: 'x'.repeat(51) },
        'keywords.0',
        'Each entry can be at most 50 characters',
        'Ogni voce può avere al massimo 50 caratteri',
      ],
      [
        { targetAudience: Array.from({ length: 11 }, (_, i) => `a${i}`) },
        'targetAudience',
        'At most 10 target audiences',
        'Al massimo 10 pubblici di riferimento',
      ],
      [
        { socialLinks: 'https://a.example.org, nope' },
        'socialLinks.1',
        'Please enter a valid web address starting with https://',
        'Inserisci un indirizzo web valido che inizi con https://',
      ],
      [
        { socialLinks: Array.from({ length: 7 }, (_, i) => `https://s${i}.example.org`) },
        'socialLinks',
        'At most 6 social links',
        'Al massimo 6 link social',
      ],
      [
        {
          promotionalImages: Array.from(
            { length: 7 },
            (_, i) => `/uploads/covers/x/${String(i).repeat(32)}.webp`,
          ),
        },
        'promotionalImages',
        'At most 6 promotional images',
        'Al massimo 6 immagini promozionali',
      ],
      [{ title: 'x'.repeat(201) }, 'title', 'This text is too long', 'Questo testo è troppo lungo'],
      [
        { purchaseLinks: { kobo: 'https://kobo.example.org' } },
        'purchaseLinks',
        'This value is not valid',
        'Questo valore non è valido',
      ],
    ];
    for (const [over, field, en, it] of cases) {
      const res = await call(ada, 'POST', '/api/ads', { ...validAd(), ...over });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error.fields[field], field).toBe(en);
      const itRes = await call(
        ada,
        'POST',
        '/api/ads',
        { ...validAd(), ...over },
        { 'accept-language': 'it' },
      );
      expect(itRes.json().error.fields[field], field).toBe(it);
    }
    expect(await adCount()).toBe(0);
  });

  it('needs a session (401) and a same-origin page (403)', async () => {
    const anon = await call(null, 'POST', '/api/ads', validAd());
    expect(anon.statusCode).toBe(401);
    expect(anon.json().error.message).toBe('Unauthorized. Please login.');
    const crossSite = await call(ada, 'POST', '/api/ads', validAd(), {
      origin: 'https://evil.example',
    });
    expect(crossSite.statusCode).toBe(403);
    expect(await adCount()).toBe(0);
  });
});

describe('the author’s list', () => {
  it('pages by tab, newest first, with counts; only my own ads', async () => {
    const draft = await api.createAd(ada, { title: 'Draft' }, false);
    const active = await api.createAd(ada, { title: 'Active' });
    const paused = await api.createAd(ada, { title: 'Paused' });
    await call(ada, 'POST', `/api/ads/${paused}/pause`);
    const expired = await api.createAd(ada, { title: 'Expired', endDate: '2026-03-12' });
    await api.createAd(bruno, { title: 'Not mine' });
    clock.set('2026-03-13T00:00:01Z');

    const allRes = await call(ada, 'GET', '/api/ads/mine');
    expect(allRes.statusCode, allRes.body).toBe(200);
    const all = allRes.json();
    expect(all.items.map((a: { title: string }) => a.title)).toEqual([
      'Expired',
      'Paused',
      'Active',
      'Draft',
    ]);
    expect(all).toMatchObject({ page: 1, pageSize: 20, total: 4 });
    expect(all.counts).toEqual({ all: 4, active: 1, paused: 1, draft: 1, expired: 1 });
    const byTab = async (status: string) =>
      (await call(ada, 'GET', `/api/ads/mine?status=${status}`))
        .json()
        .items.map((a: { id: string; status: string }) => [a.id, a.status]);
    expect(await byTab('active')).toEqual([[active, 'active']]);
    expect(await byTab('paused')).toEqual([[paused, 'paused']]);
    expect(await byTab('draft')).toEqual([[draft, 'draft']]);
    expect(await byTab('expired')).toEqual([[expired, 'expired']]);

    const bad = await call(ada, 'GET', '/api/ads/mine?status=deleted&page=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      status: 'Unknown filter. Use all, active, paused, draft or expired',
      page: 'Page must be a whole number of 1 or more',
    });
    expect((await call(null, 'GET', '/api/ads/mine')).statusCode).toBe(401);
  });

  it('pages 20 at a time', async () => {
    for (let i = 0; i < 21; i++) await api.createAd(ada, { title: `Ad ${i}` }, false);
    const first = (await call(ada, 'GET', '/api/ads/mine')).json();
    const second = (await call(ada, 'GET', '/api/ads/mine?page=2')).json();
    expect(first.items).toHaveLength(20);
    expect(second.items.map((a: { title: string }) => a.title)).toEqual(['Ad 0']);
    expect(second.total).toBe(21);
  });
});

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

describe('the promoted books list', () => {
  it('lists running ads newest first, 20 a page, filtered by genre, keywords and rating', async () => {
    const mystery = await api.createAd(ada, { genre: 'mystery', keywords: 'giallo, milano' });
    const fantasy = await api.createAd(ada, { genre: 'fantasy', keywords: 'draghi' });
    await api.createAd(ada, { genre: 'fantasy' }, false); // a draft
    await t.database.query('update book_advertisements set average_rating = 4.5 where id = $1', [
      fantasy,
    ]);
    const ids = async (q = '') =>
      (await call(null, 'GET', `/api/ads${q}`)).json().items.map((a: { id: string }) => a.id);

    expect(await ids()).toEqual([fantasy, mystery]);
    expect(await ids('?genre=mystery')).toEqual([mystery]);
    expect(await ids('?keywords=Draghi,%20elfi')).toEqual([fantasy]);
    expect(await ids('?minRating=4')).toEqual([fantasy]);
    const page = (await call(null, 'GET', '/api/ads')).json();
    expect(page).toMatchObject({ page: 1, pageSize: 20, total: 2 });
    expect(page.items[0]).toMatchObject({
      sponsor: { id: ada.id, displayName: 'Ada Autrice', username: 'ada_writes' },
      genre: 'fantasy',
      keywords: ['draghi'],
    });
    const bad = await call(null, 'GET', '/api/ads?genre=cookbooks&minRating=6&page=x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      genre: 'Unknown genre',
      minRating: 'Minimum rating must be a number from 0 to 5',
      page: 'Page must be a whole number of 1 or more',
    });
  });
});

describe('the sponsored slot', () => {
  it('prefers the page’s genre and search words, says why, and never repeats an excluded ad', async () => {
    const mystery = await api.createAd(ada, { genre: 'mystery', keywords: 'milano, noir' });
    const fantasy = await api.createAd(ada, { genre: 'fantasy', keywords: 'draghi' });
    const sciFi = await api.createAd(ada, { genre: 'sciFi', keywords: 'robot, milano' });

    for (let i = 0; i < 5; i++) {
      const [ad] = await api.slot('placement=library&genre=mystery&q=Milano%20noir');
      expect(ad.id).toBe(mystery);
      expect(ad.reasons).toEqual({
        genre: 'mystery',
        keywords: ['milano', 'noir'],
        matchedGenre: true,
        matchedKeywords: ['milano', 'noir'],
      });
      expect(ad.sponsor).toMatchObject({ id: ada.id, displayName: 'Ada Autrice' });
    }
    // A marketplace genre maps to its ad genre (sciFi is the same key in both lists).
    const [robot] = await api.slot('placement=buy&genre=sciFi');
    expect(robot.id).toBe(sciFi);
    // Both matching (genre and keyword) before only one.
    const two = await api.slot('placement=library&genre=sciFi&q=milano&limit=2');
    expect(two.map((a) => a.id)).toEqual([sciFi, mystery]);

    const shelf = await api.slot(`placement=buy&limit=12&exclude=${mystery},not-an-id`);
    expect(shelf.map((a) => a.id).sort()).toEqual([fantasy, sciFi].sort());

    const bad = await call(null, 'GET', '/api/ads/slot?placement=sidebar&limit=13');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      placement: 'Unknown placement. Use library, buy, community, promoted or ad',
      limit: 'Limit must be a whole number from 1 to 12',
    });
  });

  it('rotates among ads that match equally, favouring the less seen today', async () => {
    const a = await api.createAd(ada, { genre: 'fantasy', keywords: '' });
    const b = await api.createAd(ada, { genre: 'fantasy', keywords: '' });
    const seen = new Set<string>();
    for (let i = 0; i < 30 && seen.size < 2; i++)
      seen.add((await api.slot('placement=library'))[0].id);
    expect([...seen].sort()).toEqual([a, b].sort());

    // b has been seen 999 times today: a comes up nearly always.
    await t.database.query(
      `insert into ad_daily_stats (ad_id, day, impressions) values ($1, '2026-03-10', 999)`,
      [b],
    );
    let firstA = 0;
    for (let i = 0; i < 40; i++) if ((await api.slot('placement=library'))[0].id === a) firstA++;
    expect(firstA).toBeGreaterThanOrEqual(36);
  });
});

describe('the API document', () => {
  it('lists every advertisements route with its errors', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const routes: Array<[string, string, string[]]> = [
      ['/api/ads', 'get', ['200', '400']],
      ['/api/ads', 'post', ['201', '400', '401']],
      ['/api/ads/slot', 'get', ['200', '400']],
      ['/api/ads/mine', 'get', ['200', '400', '401']],
      ['/api/ads/{id}', 'get', ['200', '404']],
      ['/api/ads/{id}', 'patch', ['200', '400', '401', '404']],
      ['/api/ads/{id}', 'delete', ['204', '401', '404']],
      ['/api/ads/{id}/activate', 'post', ['200', '401', '404', '409']],
      ['/api/ads/{id}/pause', 'post', ['200', '401', '404', '409']],
      ['/api/ads/{id}/resume', 'post', ['200', '401', '404', '409']],
      ['/api/ads/{id}/events', 'post', ['202', '400', '404', '503']],
      ['/api/ads/{id}/analytics', 'get', ['200', '400', '401', '404']],
      ['/api/ads/{id}/analytics.csv', 'get', ['200', '400', '401', '404']],
      ['/api/ads/{id}/reviews', 'get', ['200', '400', '404']],
      ['/api/ads/{id}/reviews', 'post', ['201', '400', '401', '403', '404', '409']],
    ];
    for (const [path, method, statuses] of routes) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      expect(Object.keys(doc.paths[path][method].responses).sort(), `${method} ${path}`).toEqual(
        statuses.sort(),
      );
    }
  });
});
