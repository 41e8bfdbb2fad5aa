import {
  ADS_PAGE_SIZE,
  AD_REVIEWS_PAGE_SIZE,
  type AdCreate,
  type AdLanguage,
  type AdListFilter,
  type AdListPage,
  type AdReview,
  type AdReviewPage,
  type AdUpdate,
  type Advertisement,
} from '@shared/schemas/ads';
import type { Database } from '../../db/client';
import { sql } from '../../db/sql';
import { AppError, conflict, forbidden, notFound, validationFailed } from '../../platform/errors';
import { sqlState } from '../../db/tx';
import type { ReleaseUploads } from '../../platform/uploads';
import {
  AD_COLUMNS,
  FIELD_COLUMNS,
  columnOf,
  dayOf,
  isAdId,
  isRunning,
  toAdvertisement,
  type AdField,
  valueOf,
  type AdRow,
} from './queries';

export const adNotFound = () => notFound('adsApi.errors.notFound');
const refused = (key: string) => new AppError(409, 'conflict', `adsApi.errors.${key}`);

/** The author's list tabs, as SQL over `a` ($2 is today). */
const FILTERS: Record<AdListFilter, string> = {
  all: 'true',
  active: `a.status = 'active' and (a.end_date is null or a.end_date >= $2::date)`,
  expired: `a.status = 'active' and a.end_date < $2::date`,
  paused: `a.status = 'paused'`,
  draft: `a.status = 'draft'`,
};

interface ReviewRow {
  id: string;
  ad_id: string;
  reviewer_id: string;
  rating: number;
  review_text: string;
  verified_purchase: boolean;
  created_at: Date;
  display_name: string;
  username: string | null;
  avatar_url: string | null;
}

const REVIEW_COLUMNS = `r.id, r.ad_id, r.reviewer_id, r.rating, r.review_text, r.verified_purchase,
  r.created_at, u.display_name, u.username::text as username, u.avatar_url`;

function toReview(row: ReviewRow): AdReview {
  return {
    id: row.id,
    adId: row.ad_id,
    reviewer: {
      id: row.reviewer_id,
      displayName: row.display_name,
      username: row.username,
      avatarUrl: row.avatar_url,
    },
    rating: Number(row.rating),
    text: row.review_text,
    verifiedPurchase: row.verified_purchase,
    createdAt: (row.created_at instanceof Date
      ? row.created_at
      : new Date(row.created_at)
    ).toISOString(),
  };
}

export interface AdServiceDeps {
  database: Database;
  now: () => Date;
  /** Called after an author changed an ad (the slots' in-memory list is dropped). */
  onChange?: () => void;
  /** Images an edit replaced or a deletion left go (platform/uploads), unless shown elsewhere. */
  releaseUploads?: ReleaseUploads;
}

export function createAdService({
  database,
  now,
  onChange = () => {},
  releaseUploads = async () => [],
}: AdServiceDeps) {
  const today = () => dayOf(now());

  const read = async (id: string) => {
    if (!isAdId(id)) return null;
    const [row] = await database.query<AdRow>(
      `select ${AD_COLUMNS} from book_advertisements a join users u on u.id = a.author_id
       where a.id = $1`,
      [id],
    );
    return row ?? null;
  };

  /** The author's own ad; anyone else learns nothing of it (404, like a missing one). */
  const mine = async (me: string, id: string) => {
    const row = await read(id);
    if (!row || row.author_id !== me) throw adNotFound();
    return row;
  };

  /** An ad a reader may see: running now (its author active), or their own in any status. */
  const visible = async (viewer: string | null, id: string) => {
    const row = await read(id);
    if (!row) throw adNotFound();
    if (row.author_id !== viewer && (!isRunning(row, today()) || row.author_status !== 'active'))
      throw adNotFound();
    return row;
  };

  /** The DB's own checks back the schema's; a value that slipped through is still a 400. */
  const saving = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (sqlState(err) === '23514')
        throw validationFailed({ endDate: 'ads.validation.endBeforeStart' });
      throw err;
    }
  };

  /** The author's preferred language (it or en, both ad languages). */
  const authorLanguage = async (me: string): Promise<AdLanguage> => {
    const [row] = await database.query<{ language: AdLanguage }>(
      'select preferred_language as language from users where id = $1',
      [me],
    );
    return row?.language ?? 'en';
  };

  return {
    mine,
    visible,
    today,

    async list(me: string, filter: AdListFilter, page: number): Promise<AdListPage> {
      const day = today();
      const [rows, [counts]] = await Promise.all([
        database.query<AdRow>(
          `select ${AD_COLUMNS} from book_advertisements a join users u on u.id = a.author_id
           where a.author_id = $1 and ${FILTERS[filter]}
             -- Typed here too: a parameter no clause uses has no type.
             and $2::date is not null
           order by a.created_at desc, a.id desc limit $3 offset $4`,
          [me, day, ADS_PAGE_SIZE, (page - 1) * ADS_PAGE_SIZE],
        ),
        database.query<Record<AdListFilter, number>>(
          `select count(*)::int as "all",
             ${(['active', 'expired', 'paused', 'draft'] as const)
               .map((f) => `count(*) filter (where ${FILTERS[f]})::int as ${f}`)
               .join(', ')}
           from book_advertisements a where a.author_id = $1`,
          [me, day],
        ),
      ]);
      return {
        items: rows.map((r) => toAdvertisement(r, day)),
        page,
        pageSize: ADS_PAGE_SIZE,
        total: counts[filter],
        counts,
      };
    },

    async get(viewer: string | null, id: string): Promise<Advertisement> {
      return toAdvertisement(await visible(viewer, id), today());
    },

    /** New ads are drafts, whatever the body says. */
    async create(me: string, sent: AdCreate): Promise<Advertisement> {
      // The book's language, unless chosen, is the author's own.
      const input = sent.language ? sent : { ...sent, language: await authorLanguage(me) };
      const fields = Object.keys(FIELD_COLUMNS) as AdField[];
      const columns = sql.join(fields.map(columnOf));
      const values = sql.join(
        fields.map((f) => valueOf(f, defaultOf(f, input[f as keyof AdCreate]))),
      );
      const [{ id }] = await saving(() =>
        database.query<{ id: string }>(
          sql`insert into book_advertisements (author_id, status, ${columns})
              values (${me}, 'draft', ${values}) returning id`,
        ),
      );
      onChange();
      return toAdvertisement((await read(id))!, today());
    },

    /** Only the fields sent change; null clears an optional one. A rejected ad becomes a draft. */
    async update(me: string, id: string, input: AdUpdate): Promise<Advertisement> {
      const current = await mine(me, id);
      const sent = (Object.keys(input) as AdField[]).filter(
        (f) => f in FIELD_COLUMNS && input[f] !== undefined,
      );
      const start = sent.includes('startDate') ? (input.startDate ?? null) : current.start_date;
      const end = sent.includes('endDate') ? (input.endDate ?? null) : current.end_date;
      if (start && end && end < start)
        throw validationFailed({ endDate: 'ads.validation.endBeforeStart' });
      const sets = sql.join([
        ...sent.map((f) => sql`${columnOf(f)} = ${valueOf(f, input[f])}`),
        // Editing a rejected ad sends it back to draft (its author activates it again).
        sql`status = case when status = 'rejected' then 'draft' else status end`,
        sql`rejection_reason = case when status = 'rejected' then null else rejection_reason end`,
        sql`rejected_at = case when status = 'rejected' then null else rejected_at end`,
        sql`updated_at = now()`,
      ]);
      const [row] = await saving(() =>
        database.query<{ id: string }>(
          sql`update book_advertisements set ${sets}
              where id = ${id} and author_id = ${me} returning id`,
        ),
      );
      if (!row) throw adNotFound();
      onChange();
      const updated = (await read(id))!;
      const shown = new Set([updated.cover_image_url, ...(updated.promotional_images ?? [])]);
      await releaseUploads(
        me,
        [current.cover_image_url, ...(current.promotional_images ?? [])].filter(
          (url) => !shown.has(url),
        ),
      );
      return toAdvertisement(updated, today());
    },

    /**
     * Deletes the ad (its events, counters and reviews go with it) and its uploaded images that
     * no listing, other ad, post or avatar still shows.
     */
    async remove(me: string, id: string): Promise<void> {
      if (!isAdId(id)) throw adNotFound();
      const [row] = await database.query<{ images: string[] }>(
        `delete from book_advertisements where id = $1 and author_id = $2
         returning array_remove(array_prepend(cover_image_url, promotional_images), null) as images`,
        [id, me],
      );
      if (!row) throw adNotFound();
      onChange();
      await releaseUploads(me, row.images ?? []);
    },

    /**
     * draft → active (activate), active → paused (pause), paused → active (resume). The update
     * names the state it leaves, so two tabs racing cannot both move it; a refused move says why.
     */
    async transition(
      me: string,
      id: string,
      action: 'activate' | 'pause' | 'resume',
    ): Promise<Advertisement> {
      const day = today();
      const from = { activate: 'draft', pause: 'active', resume: 'paused' }[action];
      const to = action === 'pause' ? 'paused' : 'active';
      const current = await mine(me, id);
      const ended = current.end_date !== null && current.end_date < day;
      if (current.status === 'rejected') throw refused('rejected');
      if (current.status !== from)
        throw refused(
          { activate: 'cannotActivate', pause: 'cannotPause', resume: 'cannotResume' }[action],
        );
      if (ended) throw refused('ended');
      const [row] = await database.query<{ id: string }>(
        `update book_advertisements set status = $4, updated_at = now()
         where id = $1 and author_id = $2 and status = $3
           and (end_date is null or end_date >= $5::date)
         returning id`,
        [id, me, from, to, day],
      );
      if (!row)
        throw refused(
          { activate: 'cannotActivate', pause: 'cannotPause', resume: 'cannotResume' }[action],
        );
      onChange();
      return toAdvertisement((await read(id))!, day);
    },

    async reviews(viewer: string | null, id: string, page: number): Promise<AdReviewPage> {
      const ad = await visible(viewer, id);
      const rows = await database.query<ReviewRow>(
        `select ${REVIEW_COLUMNS} from ad_book_reviews r join users u on u.id = r.reviewer_id
         where r.ad_id = $1 order by r.created_at desc, r.id desc limit $2 offset $3`,
        [id, AD_REVIEWS_PAGE_SIZE, (page - 1) * AD_REVIEWS_PAGE_SIZE],
      );
      return {
        items: rows.map(toReview),
        page,
        pageSize: AD_REVIEWS_PAGE_SIZE,
        total: ad.review_count,
        averageRating: ad.average_rating,
      };
    },

    /** Once per reader and ad (the unique index decides between two tabs); never the author. */
    async review(me: string, id: string, rating: number, text: string): Promise<AdReview> {
      const ad = await visible(me, id);
      if (ad.author_id === me) throw forbidden('adsApi.errors.ownReview');
      const [row] = await database.query<{ id: string }>(
        `insert into ad_book_reviews (ad_id, reviewer_id, rating, review_text)
         values ($1, $2, $3, $4) on conflict (ad_id, reviewer_id) do nothing returning id`,
        [id, me, rating, text],
      );
      if (!row) throw conflict('adsApi.errors.alreadyReviewed');
      const [created] = await database.query<ReviewRow>(
        `select ${REVIEW_COLUMNS} from ad_book_reviews r join users u on u.id = r.reviewer_id
         where r.id = $1`,
        [row.id],
      );
      return toReview(created);
    },
  };
}

export type AdService = ReturnType<typeof createAdService>;

/** Create's defaults for fields left out: empty lists, no purchase links, budgets 0, else null. */
function defaultOf(field: AdField, value: unknown): unknown {
  if (value !== undefined) return value;
  switch (field) {
    case 'keywords':
    case 'targetAudience':
    case 'promotionalImages':
    case 'socialLinks':
      return [];
    case 'purchaseLinks':
      return {};
    case 'dailyBudget':
    case 'totalBudget':
      return 0;
    default:
      return null;
  }
}
