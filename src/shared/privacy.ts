import { z } from 'zod';

/** A member without a password proves it is them by a sign-in at most this old. */
export const FRESH_SIGN_IN_MINUTES = 10;

/** "Delete my account": the current password (absent for Google-only accounts). */
export const deleteAccountSchema = z.object({
  password: z
    .string({ error: 'validation.invalid' })
    .max(1024, { error: 'validation.tooLong' })
    .optional(),
});
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;

/** What the export and the settings page call a member whose account was deleted. */
export const DELETED_MEMBER_KEY = 'members.deleted';
