import { describe, expect, it } from 'vitest';
import { validAd } from '../../test/ads';
import { t, clock, ada, bruno, api, call, adCount, useFixture } from './routes.fixture';

useFixture();

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
      language: 'it', // Ada's own language: none was sent
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

  it('applies the defaults: banner, the author’s language, EUR, budgets 0', async () => {
    const setLanguage = (language: string) =>
      t.database.query('update users set preferred_language = $2 where id = $1', [
        ada.id,
        language,
      ]);
    await setLanguage('en');
    const res = await call(ada, 'POST', '/api/ads', {
      title: 'T',
      description: 'D',
      genre: 'poetry',
    });
    await setLanguage('it');
    const italian = await call(ada, 'POST', '/api/ads', {
      title: 'T',
      description: 'D',
      genre: 'poetry',
    });
    expect(italian.json().ad.language).toBe('it');
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
