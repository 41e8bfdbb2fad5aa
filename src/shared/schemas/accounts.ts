import { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH, stripInvisibleControls } from '../names';
import { emailField } from './common';
import { usernameField } from './profile';

/**
 * POST /api/auth/sign-up/email. Strict: the account's other fields (avatar, display username,
 * language, verification…) are the app's to set, so a body naming one is refused with 400.
 * The password's length is checked by the sign-up itself, with its own messages. `acceptTerms`
 * must be true (400 auth.errors.termsRequired otherwise); the acceptance time and the terms'
 * version (TERMS_VERSION) are stored with the account.
 */
export const signUpSchema = z.strictObject(
  {
    email: emailField(),
    password: z
      .string({ error: 'validation.required' })
      .max(1024, { error: 'auth.errors.passwordTooLong' }),
    /** The display name; empty or missing: the member is asked for one after confirming. */
    name: z
      .string({ error: 'validation.invalid' })
      .transform(stripInvisibleControls)
      .pipe(z.string().trim().max(DISPLAY_NAME_MAX_LENGTH, { error: 'validation.tooLong' }))
      .optional(),
    username: usernameField().optional(),
    /** The terms of service and the privacy policy, accepted: nobody signs up without. */
    acceptTerms: z.literal(true, { error: 'auth.errors.termsRequired' }),
    /** Where the confirmation link returns: a path of this site. */
    callbackURL: z.string({ error: 'validation.invalid' }).max(2048).optional(),
  },
  { error: 'validation.invalid' },
);
export type SignUpInput = z.input<typeof signUpSchema>;
