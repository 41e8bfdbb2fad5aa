import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { migrationsDir } from '../../db/migrate';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { adsClient, validAd } from '../../test/ads';

/**
 * Author-supplied addresses (issue 19, finding 6): an ad image of `/uploads/../api/me/export`
 * made every signed-in viewer's browser call the API. Images must be our uploads exactly as the
 * storage names them, links absolute https URLs; on create and on PATCH, for ads and listings.
 */
let t: TestApp;
let ada: Member;
let bruno: Member;
let api: ReturnType<typeof adsClient>;

const upload = (n = 0) => `/uploads/covers/${ada.id}/${String(n).repeat(32)}.webp`;
const IMAGE_ATTACKS = [
  '/uploads/../api/me/export',
  '/uploads/%2e%2e/api/me/export',
  '/uploads/%2E%2E/api/me/export',
  '/uploads/..%2fapi/me/export',
  '/uploads/covers/x/..\\..\\api/me/export',
  '\\\\evil.example/x.png',
  '\\evil',
  '//evil.example/x.png',
  'https://evil.example/x.png',
  'javascript:alert(1)',
  'data:image/svg+xml,<svg onload=alert(1)>',
  '/api/me/export',
  '/uploads/covers/x/0123456789abcdef0123456789abcdef.webp?/../../api/me/export',
];
// A NUL byte is refused before any schema by the platform's text check (one message for the API).
const NUL_ATTACKS = [
  '/uploads/covers/x/0123456789abcdef0123456789abcdef.webp\u0000',
  'https://example.org/\u0000',
];
const LINK_ATTACKS = [
  'javascript:alert(1)',
  'http://example.org/book',
  '//evil.example/x',
  '/api/me/export',
  'https://user:secret@example.org/',
  'data:text/html,<script>alert(1)</script>',
  '\\\\evil.example',
  `https://example.org/${'x'.repeat(3000)}`,
];

beforeAll(async () => {
  t = await createTestApp({ config: { adsServingCacheMs: 0 } });
  api = adsClient(t);
  [ada, bruno] = await Promise.all([
    createMember(t, { username: 'ada_urls', displayName: 'Ada' }),
    createMember(t, { username: 'bruno_urls', displayName: 'Bruno' }),
  ]);
});

const rowOf = async (id: string) =>
  (
    await t.database.query(
      `select cover_image_url, promotional_images, trailer_video_url, sample_chapter_url,
         author_website_url, social_links, purchase_links, title from book_advertisements
       where id = $1`,
      [id],
    )
  )[0];

describe('ad images and links', () => {
  it('answer 400 for every attack payload, on create and on PATCH, and change nothing', async () => {
    const id = await api.createAd(ada, { coverImageUrl: upload(1) });
    const before = await rowOf(id);
    // Every field in each request (the routes allow a member 60 writes a minute).
    const rounds = Math.max(IMAGE_ATTACKS.length, LINK_ATTACKS.length);
    for (let i = 0; i < rounds; i++) {
      const image = IMAGE_ATTACKS[i % IMAGE_ATTACKS.length];
      const link = LINK_ATTACKS[i % LINK_ATTACKS.length];
      const body = {
        coverImageUrl: image,
        promotionalImages: [image],
        trailerVideoUrl: link,
        sampleChapterUrl: link,
        authorWebsiteUrl: link,
        socialLinks: [link],
        purchaseLinks: { amazon: link },
      };
      const imageMessage = 'Upload the image here: only images uploaded to Scaffale can be used';
      const linkMessage = 'Please enter a valid web address starting with https://';
      const created = await api.call(ada, 'POST', '/api/ads', { ...validAd(), ...body });
      expect(created.statusCode, `${image} ${link}`).toBe(400);
      expect(created.json().error.fields, `${image} ${link}`).toEqual({
        coverImageUrl: imageMessage,
        'promotionalImages.0': imageMessage,
        trailerVideoUrl: linkMessage,
        sampleChapterUrl: linkMessage,
        authorWebsiteUrl: linkMessage,
        'socialLinks.0': linkMessage,
        'purchaseLinks.amazon': linkMessage,
      });
      const patched = await api.call(ada, 'PATCH', `/api/ads/${id}`, body, {
        'accept-language': 'it',
      });
      expect(patched.statusCode, `${image} ${link}`).toBe(400);
      expect(patched.json().error.fields.trailerVideoUrl).toBe(
        'Inserisci un indirizzo web valido che inizi con https://',
      );
      expect(Object.keys(patched.json().error.fields)).toHaveLength(7);
    }
    expect(await rowOf(id)).toEqual(before);
    expect((await api.call(null, 'GET', `/api/ads/${id}`)).json().ad.coverImageUrl).toBe(upload(1));
  });

  it('keeps our uploads and https links, in their normal form; only the owner may change them', async () => {
    const res = await api.call(ada, 'POST', '/api/ads', {
      ...validAd(),
      coverImageUrl: upload(2),
      promotionalImages: [upload(3)],
      sampleChapterUrl: ' HTTPS://Example.ORG/a/../capitolo.pdf ',
      socialLinks: 'https://instagram.com/ada',
      purchaseLinks: { amazon: 'https://www.amazon.it/dp/8845246736' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { ad } = res.json();
    expect(ad).toMatchObject({
      coverImageUrl: upload(2),
      promotionalImages: [upload(3)],
      sampleChapterUrl: 'https://example.org/capitolo.pdf',
      socialLinks: ['https://instagram.com/ada'],
      purchaseLinks: { amazon: 'https://www.amazon.it/dp/8845246736' },
    });
    const before = await rowOf(ad.id);
    const change = { coverImageUrl: upload(4), authorWebsiteUrl: 'https://ada.example.org' };
    const anonymous = await api.call(null, 'PATCH', `/api/ads/${ad.id}`, change);
    expect(anonymous.statusCode).toBe(401);
    const other = await api.call(bruno, 'PATCH', `/api/ads/${ad.id}`, change);
    expect(other.statusCode).toBe(404);
    expect(await rowOf(ad.id)).toEqual(before);
    const mine = await api.call(ada, 'PATCH', `/api/ads/${ad.id}`, change);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().ad).toMatchObject({
      coverImageUrl: upload(4),
      authorWebsiteUrl: 'https://ada.example.org/',
    });
  });
});

describe('the API document', () => {
  it('still describes the ad routes whose bodies now normalise addresses', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths;
    expect(paths['/api/ads']).toHaveProperty('post');
    expect(paths['/api/ads/{id}']).toHaveProperty('patch');
    expect(paths['/api/ads/{id}/events']).toHaveProperty('post');
  });
});

describe('listing covers', () => {
  const listing = {
    mode: 'full',
    title: 'Baudolino',
    author: 'Umberto Eco',
    genre: 'fiction',
    description: 'Un romanzo.',
    price: 8,
  };
  it('answer 400 to a NUL byte in an address, on ads and listings, and change nothing', async () => {
    const id = await api.createAd(ada, { coverImageUrl: upload(2) });
    const before = await rowOf(id);
    for (const bad of NUL_ATTACKS) {
      const bodies = [
        { coverImageUrl: bad },
        { promotionalImages: [bad] },
        { authorWebsiteUrl: bad },
        { purchaseLinks: { amazon: bad } },
      ];
      for (const body of bodies) {
        const created = await api.call(ada, 'POST', '/api/ads', { ...validAd(), ...body });
        expect(created.statusCode, JSON.stringify(body)).toBe(400);
        const patched = await api.call(ada, 'PATCH', `/api/ads/${id}`, body);
        expect(patched.statusCode, JSON.stringify(body)).toBe(400);
        expect(Object.values(patched.json().error.fields ?? {}).join(' ')).toMatch(/not allowed/);
      }
      const res = await api.call(bruno, 'POST', '/api/listings', { ...listing, coverUrl: bad });
      expect(res.statusCode, bad).toBe(400);
    }
    expect(await rowOf(id)).toEqual(before);
  });

  it('answer 400 for a relative path outside our uploads, and keep working uploads', async () => {
    for (const bad of [...IMAGE_ATTACKS.filter((u) => !u.startsWith('https://'))]) {
      const res = await api.call(bruno, 'POST', '/api/listings', { ...listing, coverUrl: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.fields.coverUrl, bad).toBe('The cover image address is not valid');
    }
    const own = `/uploads/covers/${bruno.id}/${'a'.repeat(32)}.webp`;
    const res = await api.call(bruno, 'POST', '/api/listings', { ...listing, coverUrl: own });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().coverUrl).toBe(own);
  });
});

describe('migration 0023', () => {
  it('drops stored addresses that do not point where they claim, keeping every row', async () => {
    // Back to the tables as they were before the migration, with what the attack left behind.
    await t.database.exec(`
      alter table ad_events drop constraint ad_events_billed_check;
      alter table ad_events drop column billed;
      alter table ad_daily_stats drop column billed_clicks;
      alter table book_advertisements drop column billed_click_count;`);
    const good = upload(5);
    const [{ id }] = await t.database.query<{ id: string }>(
      `insert into book_advertisements (author_id, title, description, genre, status,
         cover_image_url, promotional_images, trailer_video_url, sample_chapter_url,
         author_website_url, social_links, purchase_links, click_count)
       values ($1, 'T', 'D', 'art', 'active', '/uploads/../api/me/export',
         array[$2, '/uploads/%2e%2e/api/me/export', 'https://img.example.org/x.png']::text[],
         'javascript:alert(1)', 'https://example.org/capitolo.pdf', 'http://ada.example.org',
         array['https://instagram.com/ada', '//evil.example/x']::text[],
         $3::jsonb, 31) returning id`,
      [
        ada.id,
        good,
        JSON.stringify({
          amazon: 'https://www.amazon.it/dp/1',
          bookshop: 'javascript:alert(1)',
          author_website: 'https://u:p@ada.example.org/',
        }),
      ],
    );
    const [{ id: clean }] = await t.database.query<{ id: string }>(
      `insert into book_advertisements (author_id, title, description, genre, cover_image_url)
       values ($1, 'Clean', 'D', 'art', $2) returning id`,
      [ada.id, good],
    );
    await t.database.query(
      `insert into ad_events (ad_id, kind, day, viewer_hash) values
         ($1, 'impression', '2026-03-01', 'h1'), ($1, 'click', '2026-03-01', 'h1')`,
      [id],
    );
    await t.database.query(
      `insert into ad_daily_stats (ad_id, day, impressions, clicks) values ($1, '2026-03-01', 1, 1)`,
      [id],
    );
    const count = async () =>
      (
        await t.database.query<{ n: number }>('select count(*)::int as n from book_advertisements')
      )[0].n;
    const rows = await count();

    await t.database.exec(readFileSync(`${migrationsDir()}/0023_ads_billing_urls.sql`, 'utf8'));

    expect(await count()).toBe(rows);
    expect(await rowOf(id)).toEqual({
      title: 'T',
      cover_image_url: null,
      promotional_images: [good],
      trailer_video_url: null,
      sample_chapter_url: 'https://example.org/capitolo.pdf',
      author_website_url: null,
      social_links: ['https://instagram.com/ada'],
      purchase_links: { amazon: 'https://www.amazon.it/dp/1' },
    });
    expect((await rowOf(clean)).cover_image_url).toBe(good);
    // Clicks counted before were all charged.
    expect(
      await t.database.query(`select kind, billed from ad_events where ad_id = $1 order by kind`, [
        id,
      ]),
    ).toEqual([
      { kind: 'click', billed: true },
      { kind: 'impression', billed: null },
    ]);
    expect(
      await t.database.query(
        `select a.billed_click_count, s.billed_clicks from book_advertisements a
         join ad_daily_stats s on s.ad_id = a.id where a.id = $1`,
        [id],
      ),
    ).toEqual([{ billed_click_count: 31, billed_clicks: 1 }]);
  });
});
