import {
  ADS_PAGE_SIZE,
  adGenreOf,
  type AdGenre,
  type PromotedPage,
  type SlotAd,
} from '@shared/schemas/ads';
import type { Database } from '../../db/client';
import {
  CARD_COLUMNS,
  RUNNING_SQL,
  WITHIN_BUDGET_SQL,
  dayOf,
  isAdId,
  toCard,
  type CardRow,
} from './queries';

export { adGenreOf };

/** The reader's search as keyword candidates: the whole phrase and each word of 2+ letters. */
export function searchTerms(q: string | null | undefined): string[] {
  if (!q) return [];
  const phrase = q.trim().toLowerCase().replace(/\s+/g, ' ');
  const words = phrase.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2);
  return [...new Set([phrase, ...words])].filter(Boolean).slice(0, 20);
}

/** A running ad within budget, as kept in memory for the slots. */
interface Candidate extends CardRow {
  impressions_today: number;
}

export interface ServingDeps {
  database: Database;
  now: () => Date;
  costPerClick: number;
  /** How long the in-memory list of candidates is used before it is read again (ms). */
  cacheMs: number;
}

/**
 * One slot's pick among `candidates`: ads whose genre or keywords match the page come first (both
 * matching before one); within a tier a weighted random draw, each ad's weight
 * 1 / (1 + its counted impressions today) (exponential keys: -ln(U) × (1 + impressions), smallest
 * first), so ads seen less today come up more often, and a reload shows another one.
 */
export function pickAds(
  candidates: readonly Candidate[],
  opts: { genre: AdGenre | null; terms: string[]; exclude: string[]; limit: number },
  random: () => number = Math.random,
): SlotAd[] {
  const terms = new Set(opts.terms);
  const exclude = new Set(opts.exclude);
  return candidates
    .filter((c) => !exclude.has(c.id))
    .map((c) => {
      const matchedKeywords = (c.keywords ?? []).filter((k) => terms.has(k));
      const matchedGenre = opts.genre !== null && c.genre === opts.genre;
      return {
        c,
        matchedGenre,
        matchedKeywords,
        tier: Number(matchedGenre) + Number(matchedKeywords.length > 0),
        key: -Math.log(1 - random()) * (1 + c.impressions_today),
      };
    })
    .sort((a, b) => b.tier - a.tier || a.key - b.key)
    .slice(0, opts.limit)
    .map(({ c, matchedGenre, matchedKeywords }) => ({
      ...toCard(c),
      reasons: {
        genre: c.genre,
        keywords: c.keywords ?? [],
        matchedGenre,
        matchedKeywords,
      },
    }));
}

export function createServing({ database, now, costPerClick, cacheMs }: ServingDeps) {
  /**
   * The running ads within budget, read with one query on the partial indexes of active ads and
   * kept for `cacheMs` (per UTC day): a slot then costs no query at all. Authors' changes in this
   * process and each flush of counted events drop it, so pausing an ad or reaching a budget shows
   * at once here, and within `cacheMs` on other processes.
   */
  let cache: { day: string; at: number; ads: Promise<Candidate[]> } | null = null;

  const load = (day: string) =>
    database.query<Candidate>(
      `select ${CARD_COLUMNS}, coalesce(s.impressions, 0)::int as impressions_today
       from book_advertisements a
       join users u on u.id = a.author_id
       left join ad_daily_stats s on s.ad_id = a.id and s.day = $1::date
       where ${RUNNING_SQL('a', '$1::date')} and ${WITHIN_BUDGET_SQL('$2::numeric')}`,
      [day, costPerClick],
    );

  function candidates(): Promise<Candidate[]> {
    const day = dayOf(now());
    const fresh = cache && cache.day === day && performance.now() - cache.at < cacheMs;
    if (!fresh) {
      const ads = load(day);
      cache = { day, at: performance.now(), ads };
      // A failed read is not kept: the next request tries again.
      ads.catch(() => {
        if (cache?.ads === ads) cache = null;
      });
    }
    return cache!.ads;
  }

  return {
    /** Forget the running ads: the next slot reads them again. */
    invalidate() {
      cache = null;
    },

    /** Ads for one slot (or a shelf of up to 12), never one already on the page. */
    async slot(opts: {
      genre?: string | null;
      q?: string | null;
      exclude: string[];
      limit: number;
    }): Promise<SlotAd[]> {
      return pickAds(await candidates(), {
        genre: adGenreOf(opts.genre),
        terms: searchTerms(opts.q),
        exclude: opts.exclude.filter(isAdId),
        limit: opts.limit,
      });
    },

    /** The public page of promoted books: running and within budget, newest first, 20 a page. */
    async promoted(opts: {
      genre?: AdGenre | null;
      keywords?: string[];
      minRating?: number;
      page: number;
    }): Promise<PromotedPage> {
      const where = `${RUNNING_SQL('a', '$1::date')} and ${WITHIN_BUDGET_SQL('$2::numeric')}
        and ($3::text is null or a.genre = $3::text)
        and (cardinality($4::text[]) = 0 or a.keywords && $4::text[])
        and ($5::numeric is null or a.average_rating >= $5::numeric)`;
      const params = [
        dayOf(now()),
        costPerClick,
        opts.genre ?? null,
        opts.keywords ?? [],
        opts.minRating ?? null,
      ];
      const from = `from book_advertisements a
        left join ad_daily_stats s on s.ad_id = a.id and s.day = $1::date`;
      const [rows, [{ total }]] = await Promise.all([
        database.query<CardRow>(
          `select ${CARD_COLUMNS} ${from} join users u on u.id = a.author_id
           where ${where} order by a.created_at desc, a.id desc limit $6 offset $7`,
          [...params, ADS_PAGE_SIZE, (opts.page - 1) * ADS_PAGE_SIZE],
        ),
        database.query<{ total: number }>(
          `select count(*)::int as total ${from} where ${where}`,
          params,
        ),
      ]);
      return { items: rows.map(toCard), page: opts.page, pageSize: ADS_PAGE_SIZE, total };
    },
  };
}
