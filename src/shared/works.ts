import { z } from 'zod';
import { CONDITIONS, LISTING_TYPES } from './marketplaceConstants';
import { pageNumber } from './schemas/common';

/** Works (issue 35): one book across its editions and languages, and its available copies. */

/** A work's title in one language: an ISO 639 code ('it', 'en'; 'und' when unknown). */
export const workTitleSchema = z.object({ language: z.string(), title: z.string() });

export const workSchema = z.object({
  id: z.string(),
  /** The title in the reader's language when the work has one, else its first. */
  title: z.string(),
  titles: z.array(workTitleSchema),
  author: z.string(),
  firstYear: z.number().int().nullable(),
  /** A cover of one of its copies (our origin), or null. */
  coverUrl: z.string().nullable(),
});
export type Work = z.infer<typeof workSchema>;

export const workCopySchema = z.object({
  id: z.string(),
  title: z.string(),
  /** As the listing shows it ("Italiano", "English"); null when not given. */
  language: z.string().nullable(),
  condition: z.enum(CONDITIONS),
  listingType: z.enum(LISTING_TYPES),
  price: z.number().nullable(),
  shippingCost: z.number().nullable(),
  /** Price plus shipping (none: 0); null for a copy only for trade or without a price. */
  total: z.number().nullable(),
  currency: z.string(),
  location: z.string().nullable(),
  coverUrl: z.string().nullable(),
  seller: z.object({
    id: z.string(),
    displayName: z.string(),
    username: z.string().nullable(),
    /** The mean of the seller's reviews (src/shared/rating.ts); null: a new member. */
    rating: z.number().nullable(),
    reviewCount: z.number().int(),
  }),
});
export type WorkCopy = z.infer<typeof workCopySchema>;

/** GET /api/works/:id: the work and its available copies, cheapest in total first. */
export const workPageSchema = z.object({ work: workSchema, copies: z.array(workCopySchema) });
export type WorkPage = z.infer<typeof workPageSchema>;

/** A listing's other copies of its work, for "3 other copies from 6,00 €". */
export const workSummarySchema = z.object({
  id: z.string(),
  otherCopies: z.number().int(),
  /** The lowest total (price plus shipping) of those copies; null when none has a price. */
  from: z.number().nullable(),
  currency: z.string().nullable(),
});
export type WorkSummary = z.infer<typeof workSummarySchema>;

export const WORK_TITLE_MAX = 300;
export const WORK_AUTHOR_MAX = 300;
const LANGUAGE_CODE = /^[a-z]{2,3}$/;
const title = z
  .string({ error: 'works.errors.titleRequired' })
  .trim()
  .min(1, { error: 'works.errors.titleRequired' })
  .max(WORK_TITLE_MAX, { error: 'validation.tooLong' });

/**
 * PATCH /api/admin/works/:id: only the fields sent change. `titles` sets a title per language
 * code (null removes it); a work keeps at least one title.
 */
export const workPatchSchema = z
  .object({
    author: z
      .string()
      .trim()
      .min(1, { error: 'works.errors.authorRequired' })
      .max(WORK_AUTHOR_MAX, { error: 'validation.tooLong' })
      .optional(),
    firstYear: z
      .number({ error: 'works.errors.yearInvalid' })
      .int({ error: 'works.errors.yearInvalid' })
      .min(-3000, { error: 'works.errors.yearInvalid' })
      .max(2100, { error: 'works.errors.yearInvalid' })
      .nullable()
      .optional(),
    titles: z
      .record(z.string(), title.nullable())
      .refine((t) => Object.keys(t).every((k) => LANGUAGE_CODE.test(k)), {
        error: 'works.errors.languageInvalid',
      })
      .refine((t) => Object.keys(t).length <= 20, { error: 'validation.tooLong' })
      .optional(),
  })
  .strict();
export type WorkPatch = z.infer<typeof workPatchSchema>;

/** PUT /api/admin/books/:id/work: the catalogue book (and its listings) belongs to this work. */
export const bookWorkSchema = z.object({
  workId: z.string({ error: 'works.errors.notFound' }).max(64),
});

/** Works per page of the admins' works screen, and a work's books per page there. */
export const ADMIN_WORKS_PAGE_SIZE = 20;
export const ADMIN_WORK_BOOKS_PAGE_SIZE = 50;

/** GET /api/admin/works: words of a title (any language) or of the author; a page. */
export const adminWorksQuerySchema = z.object({
  q: z.string().trim().max(200, { error: 'validation.tooLong' }).optional(),
  page: pageNumber('validation.invalid'),
});

/** A work as the admins' list shows it: its titles, author, year, books and available copies. */
export const adminWorkSchema = workSchema.omit({ coverUrl: true }).extend({
  books: z.number().int(),
  copies: z.number().int(),
});
export type AdminWork = z.infer<typeof adminWorkSchema>;

export const adminWorkPageSchema = z.object({
  items: z.array(adminWorkSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminWorkPage = z.infer<typeof adminWorkPageSchema>;

/** A catalogue book (an edition) of a work, on the admins' work screen. */
export const adminWorkBookSchema = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  /** ISO 639 code of its language, or null when the catalogue does not say. */
  language: z.string().nullable(),
  isbn: z.string().nullable(),
  /** Its listings (every status), and those available now. */
  listings: z.number().int(),
  available: z.number().int(),
});
export type AdminWorkBook = z.infer<typeof adminWorkBookSchema>;

/** GET /api/admin/works/:id: the work and a page of its books. */
export const adminWorkDetailSchema = z.object({
  work: adminWorkSchema,
  books: z.array(adminWorkBookSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminWorkDetail = z.infer<typeof adminWorkDetailSchema>;

/** POST /api/admin/works/:id/merge: the work `from` joins this one (its books, copies, wishes). */
export const workMergeSchema = z.object({
  from: z.string({ error: 'works.errors.notFound' }).max(64),
});
