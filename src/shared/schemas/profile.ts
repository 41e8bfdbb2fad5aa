import { z } from 'zod';
import { LANGUAGES } from '../constants';
import { displayNameField, optionalPersonName } from '../names';

/** A username: 3 to 20 letters, digits or underscores. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,20}$/;

export const usernameField = () =>
  z
    .string({ error: 'profile.errors.usernameInvalid' })
    .trim()
    .regex(USERNAME_PATTERN, { error: 'profile.errors.usernameInvalid' });

/** Optional free text: trimmed, and an empty string clears the field (null). */
const optionalText = (max: number) =>
  z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(max, { error: 'validation.tooLong' })
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

/**
 * PATCH /api/me: only the fields sent change, at least one. Strict: any other key (id, email, avatarUrl, emailVerified…) is refused with
 * 400, so the body can never address another row or a field the owner may not set.
 */
export const updateProfileSchema = z
  .strictObject(
    {
      username: usernameField().optional(),
      displayName: displayNameField().optional(),
      bio: optionalText(500),
      firstName: optionalPersonName(100),
      lastName: optionalPersonName(100),
      locationCity: optionalText(100),
      locationCountry: optionalText(100),
      preferredLanguage: z.enum(LANGUAGES, { error: 'validation.invalid' }).optional(),
      /** E-mails about chat messages that arrive while the member is away. */
      emailNotifications: z.boolean({ error: 'validation.invalid' }).optional(),
      /** The member accepts the terms of service and the privacy policy (the first-visit page). */
      acceptTerms: z.literal(true, { error: 'auth.errors.termsRequired' }).optional(),
    },
    { error: 'validation.invalid' },
    // Only the fields sent change; at least one.
  )
  .refine((b) => Object.values(b).some((x) => x !== undefined), { error: 'errors.badRequest' });
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

/** The signed-in member's own, private view of their account. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  accountStatus: z.enum(['verified', 'pending']),
  displayName: z.string(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  /** The identicon seed (src/shared/identicon.ts): a hash of the member's id, never of the e-mail. */
  avatarSeed: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  bio: z.string().nullable(),
  locationCity: z.string().nullable(),
  locationCountry: z.string().nullable(),
  preferredLanguage: z.enum(LANGUAGES),
  emailNotifications: z.boolean(),
  /**
   * True while the member has no username or no display name (Google sign-in, accounts made
   * before sign-up asked for them): the web asks for both before anything else.
   */
  needsProfile: z.boolean(),
  /**
   * True while the member has not accepted the terms of service (a Google account, an account
   * made before sign-up asked): the web asks for them on the same first-visit page.
   */
  needsTerms: z.boolean(),
  createdAt: z.string(),
});
export type Me = z.infer<typeof meSchema>;

/**
 * POST /api/me/password: the current password and the new one. The new one's length is checked
 * by the route against the sign-up's own limits, with the sign-up's messages.
 */
export const changePasswordSchema = z.strictObject(
  {
    currentPassword: z
      .string({ error: 'validation.required' })
      .min(1, { error: 'validation.required' })
      .max(1024, { error: 'validation.tooLong' }),
    newPassword: z
      .string({ error: 'validation.required' })
      .min(1, { error: 'validation.required' })
      .max(1024, { error: 'auth.errors.passwordTooLong' }),
  },
  { error: 'validation.invalid' },
);
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;
