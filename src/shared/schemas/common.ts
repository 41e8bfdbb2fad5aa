import { z } from 'zod';

/**
 * Messages are locale keys: the server translates them into the request's language, and the web
 * forms translate them too (both with @shared/translator). One rule, written once, speaks both
 * languages.
 */
export const requiredText = (max = 5000) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.tooLong' });

export const emailField = () =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(254, { error: 'validation.invalidEmail' })
    .pipe(z.email({ error: 'validation.invalidEmail' }));

/**
 * A member as others see them in lists (friends, blocked members, trade partners): the public
 * name, username and avatar, never the e-mail.
 */
export const memberSummarySchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  avatarSeed: z.string(),
});
export type MemberSummary = z.infer<typeof memberSummarySchema>;

/**
 * A database id: a UUID in its text form, any case. Ids that are not can name no row, so routes
 * answer 404 without asking the database (and never reach a `::uuid` cast).
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string): boolean => UUID_PATTERN.test(id);

/**
 * An optional whole number in a query string, between `min` and `max`: '' or absent give
 * undefined; `error` is the locale key of the message for anything else.
 */
export const queryInt = (error: string, min: number, max: number) =>
  z.preprocess(
    (x) => (x === '' || x === undefined ? undefined : typeof x === 'string' ? Number(x) : x),
    z.number({ error }).int({ error }).min(min, { error }).max(max, { error }).optional(),
  );

/** `?page=`: 1 to 10,000, optional (the route reads the first page without it). */
export const pageNumber = (error: string) => queryInt(error, 1, 10_000);

/**
 * A numbered page of a list (`?page=`): its items, the page's number and size, and how many
 * there are in all. A list that says more extends it: `pageOf(item).extend({ max: … })`.
 */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  });
