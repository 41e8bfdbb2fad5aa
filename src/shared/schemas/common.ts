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
