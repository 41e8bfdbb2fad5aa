import { createHash } from 'node:crypto';
import { adCreateSchema, type AdCreateInput } from '../../src/shared/schemas/ads';
import type { SeedStep } from './types';

interface DemoAd {
  author: string;
  status: 'active' | 'paused' | 'draft';
  /** Daily impressions at the start of the month and at its end (a campaign that grows or fades). */
  impressions?: [number, number];
  /** Click rate and conversion rate (of clicks), as fractions. */
  clickRate?: number;
  conversionRate?: number;
  reviews?: Array<[string, number, string]>;
  ad: AdCreateInput;
}

export const demoAds: DemoAd[] = [
  {
    author: 'lucaferrari',
    status: 'active',
    impressions: [60, 140],
    clickRate: 0.045,
    conversionRate: 0.18,
    reviews: [
      ['giulia_legge', 5, 'Un fantasy italiano che non ha nulla da invidiare ai classici.'],
      ['marco_rossi', 4, 'Mondo costruito con cura, finale un po’ affrettato.'],
      ['emily_reads', 4, 'Lovely world-building; I read it in Italian and English.'],
    ],
    ad: {
      title: 'Le cronache di Valdombra',
      subtitle: 'Il primo libro della Torre di Sale',
      description:
        'Una cartografa in fuga, una città costruita sul sale e un patto che nessuno ricorda di aver firmato. Il fantasy d’esordio di Luca Ferrari, per chi ha amato Le Guin e Calvino.',
      genre: 'fantasy',
      language: 'it',
      isbn13: '9788804712343',
      publisher: 'Edizioni del Drago',
      publicationYear: 2025,
      pageCount: 412,
      adType: 'featured',
      keywords: 'fantasy, mappe, magia, esordio, saga',
      targetAudience: 'lettori di fantasy, giovani adulti',
      sampleChapterUrl: 'https://valdombra.example.org/primo-capitolo.pdf',
      authorWebsiteUrl: 'https://lucaferrari.example.org',
      purchaseLinks: {
        amazon: 'https://www.amazon.it/dp/8804712345',
        bookshop: 'https://bookshop.example.org/valdombra',
        author_website: 'https://lucaferrari.example.org/compra',
      },
      bookPrice: 18.5,
      currency: 'EUR',
      dailyBudget: 5,
      totalBudget: 120,
    },
  },
  {
    author: 'emily_reads',
    status: 'active',
    impressions: [120, 70],
    clickRate: 0.03,
    conversionRate: 0.12,
    reviews: [['jamesobrien', 5, 'Funny and true: Milan seen by someone who loves it.']],
    ad: {
      title: 'A Year of Milanese Mornings',
      subtitle: 'Notes from a bookshop café',
      description:
        'An English reader moves to Milan, opens a tiny secondhand bookshop and learns the city one espresso at a time. A memoir about books, neighbours and starting again.',
      genre: 'biography',
      language: 'en',
      publisher: 'Tram Line Press',
      publicationYear: 2024,
      pageCount: 256,
      adType: 'spotlight',
      keywords: 'milan, memoir, bookshop, italy, travel',
      targetAudience: 'expats, travel readers, book lovers',
      trailerVideoUrl: 'https://video.example.org/milanese-mornings',
      purchaseLinks: {
        amazon: 'https://www.amazon.co.uk/dp/1912345678',
        barnes_noble: 'https://www.barnesandnoble.com/w/milanese-mornings',
      },
      bookPrice: 12.99,
      currency: 'GBP',
      dailyBudget: 3,
      totalBudget: 0,
    },
  },
  {
    author: 'davidegreco',
    status: 'active',
    impressions: [40, 95],
    clickRate: 0.055,
    conversionRate: 0.2,
    reviews: [
      ['fra_esposito', 4, 'Palermo raccontata con ironia, il commissario è un personaggio vero.'],
      ['sofia_ricci', 3, 'Buona trama, qualche dialogo di troppo.'],
    ],
    ad: {
      title: 'Scirocco a Ballarò',
      description:
        'Un commissario stanco, un mercato che non dorme mai e un delitto durante la festa di Santa Rosalia. Un giallo siciliano tra Sciascia e Camilleri.',
      genre: 'mystery',
      language: 'it',
      publicationYear: 2023,
      pageCount: 288,
      adType: 'banner',
      keywords: 'giallo, sicilia, palermo, commissario',
      targetAudience: 'amanti del giallo',
      purchaseLinks: { amazon: 'https://www.amazon.it/dp/8899001122' },
      bookPrice: 15,
      currency: 'EUR',
      dailyBudget: 0,
      totalBudget: 60,
    },
  },
  {
    author: 'fra_esposito',
    status: 'paused',
    impressions: [30, 20],
    clickRate: 0.025,
    conversionRate: 0.1,
    ad: {
      title: 'Grammatica della poesia',
      subtitle: 'Leggere i versi a scuola',
      description:
        'Un manuale per insegnanti e studenti: come si legge una poesia, dal sonetto al verso libero, con cinquanta testi commentati.',
      genre: 'textbook',
      language: 'it',
      publicationYear: 2022,
      pageCount: 198,
      adType: 'promoted',
      keywords: 'poesia, scuola, didattica, manuale',
      targetAudience: 'insegnanti, studenti',
      bookPrice: 22,
      currency: 'EUR',
    },
  },
  {
    author: 'jamesobrien',
    status: 'draft',
    ad: {
      title: 'The Liffey at Night',
      description: 'Twelve Dublin crime stories, one for each bridge on the river.',
      genre: 'mystery',
      language: 'en',
      adType: 'banner',
      keywords: 'dublin, crime, short stories',
      currency: 'EUR',
    },
  },
];

const DAYS = 30;
const PLACEMENTS = ['library', 'library', 'library', 'buy', 'buy', 'promoted', 'ad'] as const;
const DEVICES = ['mobile', 'mobile', 'desktop', 'tablet'] as const;

/** A small deterministic generator, so every seeded database has the same month. */
function random(seed: string) {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0) || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/**
 * A few ads by demo authors with a month of believable events (weekends busier, campaigns that
 * grow or fade, click and purchase rates of real book ads), their daily counters and reviews. An
 * ad already there (same author and title) is left as it is.
 */
export const seedAds: SeedStep = async (ctx) => {
  const { database } = ctx;
  const byUsername = new Map(ctx.members.map((m) => [m.username, m.id]));
  let created = 0;
  let events = 0;
  for (const demo of demoAds) {
    const authorId = byUsername.get(demo.author);
    if (!authorId) continue;
    const [exists] = await database.query(
      'select 1 from book_advertisements where author_id = $1 and title = $2',
      [authorId, demo.ad.title],
    );
    if (exists) continue;
    const ad = adCreateSchema.parse(demo.ad);
    const [{ id }] = await database.query<{ id: string }>(
      `insert into book_advertisements (author_id, title, subtitle, description, genre, language,
         isbn13, publisher, publication_year, page_count, ad_type, keywords, target_audience,
         trailer_video_url, sample_chapter_url, author_website_url, purchase_links, book_price,
         currency, daily_budget, total_budget, status, start_date, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::text[], $13::text[], $14, $15,
         $16, $17::jsonb, $18, $19, $20, $21, $22,
         case when $22 = 'draft' then null else current_date - ${DAYS} end,
         now() - interval '${DAYS + 4} days', now() - interval '2 days')
       returning id`,
      [
        authorId,
        ad.title,
        ad.subtitle ?? null,
        ad.description,
        ad.genre,
        ad.language,
        ad.isbn13 ?? null,
        ad.publisher ?? null,
        ad.publicationYear ?? null,
        ad.pageCount ?? null,
        ad.adType,
        ad.keywords ?? [],
        ad.targetAudience ?? [],
        ad.trailerVideoUrl ?? null,
        ad.sampleChapterUrl ?? null,
        ad.authorWebsiteUrl ?? null,
        JSON.stringify(ad.purchaseLinks ?? {}),
        ad.bookPrice ?? null,
        ad.currency,
        ad.dailyBudget ?? 0,
        ad.totalBudget ?? 0,
        demo.status,
      ],
    );
    created++;

    if (demo.impressions) {
      const rand = random(demo.ad.title);
      const rows: Array<[string, string, string, string, string | null, string]> = [];
      // The paused ad ran for the first three weeks only.
      const lastDay = demo.status === 'paused' ? 9 : 0;
      for (let daysAgo = DAYS; daysAgo >= lastDay; daysAgo--) {
        const progress = (DAYS - daysAgo) / DAYS;
        const day = new Date(Date.now() - daysAgo * 86_400_000);
        const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6 ? 1.35 : 1;
        const [from, to] = demo.impressions;
        const impressions = Math.round(
          (from + (to - from) * progress) * weekend * (0.8 + rand() * 0.4),
        );
        const dayText = day.toISOString().slice(0, 10);
        for (let i = 0; i < impressions; i++) {
          const viewer = createHash('sha256')
            .update(`${demo.ad.title}|${dayText}|${i}`)
            .digest('base64url');
          const hour = 7 + Math.floor(rand() * 16);
          const at = new Date(
            `${dayText}T${String(hour).padStart(2, '0')}:${String(Math.floor(rand() * 60)).padStart(2, '0')}:00Z`,
          );
          if (at.getTime() > Date.now()) at.setTime(Date.now() - Math.floor(rand() * 3_600_000));
          const placement = PLACEMENTS[Math.floor(rand() * PLACEMENTS.length)];
          // About four readers in ten gave marketing consent: only theirs carry a device class.
          const device = rand() < 0.4 ? DEVICES[Math.floor(rand() * DEVICES.length)] : null;
          rows.push(['impression', dayText, viewer, placement, device, at.toISOString()]);
          if (rand() < (demo.clickRate ?? 0.03)) {
            const clickAt = new Date(at.getTime() + 20_000).toISOString();
            rows.push(['click', dayText, viewer, placement, device, clickAt]);
            if (rand() < (demo.conversionRate ?? 0.1))
              rows.push(['conversion', dayText, viewer, 'ad', device, clickAt]);
          }
        }
      }
      await database.query(
        `insert into ad_events (ad_id, kind, day, viewer_hash, placement, device, created_at,
           billed)
         select $1, kind, day, viewer_hash, placement, device, created_at,
           case when kind = 'click' then true end
         from unnest($2::text[], $3::date[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
           as t(kind, day, viewer_hash, placement, device, created_at)
         on conflict do nothing`,
        [id, ...[0, 1, 2, 3, 4, 5].map((c) => rows.map((r) => r[c]))],
      );
      events += rows.length;
      // The counters the event writer keeps, computed once from the seeded events.
      await database.query(
        `insert into ad_daily_stats (ad_id, day, impressions, clicks, billed_clicks, conversions)
         select ad_id, day, count(*) filter (where kind = 'impression'),
           count(*) filter (where kind = 'click'), count(*) filter (where kind = 'click' and billed),
           count(*) filter (where kind = 'conversion')
         from ad_events where ad_id = $1 group by ad_id, day`,
        [id],
      );
      await database.query(
        `update book_advertisements a set view_count = s.i, click_count = s.c,
           billed_click_count = s.b, conversion_count = s.v
         from (select sum(impressions)::int as i, sum(clicks)::int as c,
                 sum(billed_clicks)::int as b, sum(conversions)::int as v
               from ad_daily_stats where ad_id = $1) s
         where a.id = $1`,
        [id],
      );
    }

    for (const [reviewer, rating, text] of demo.reviews ?? []) {
      const reviewerId = byUsername.get(reviewer);
      if (!reviewerId) continue;
      await database.query(
        `insert into ad_book_reviews (ad_id, reviewer_id, rating, review_text, created_at)
         values ($1, $2, $3, $4, now() - make_interval(days => $5::int))
         on conflict do nothing`,
        [id, reviewerId, rating, text, Math.floor(Math.random() * 25) + 1],
      );
    }
  }
  ctx.log(
    `ads: ${created} created with ${events} events, ${demoAds.length - created} already there`,
  );
};
