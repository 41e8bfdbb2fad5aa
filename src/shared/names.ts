import { z } from 'zod';

/** The longest display name a member may choose. */
export const DISPLAY_NAME_MAX_LENGTH = 50;

/**
 * Characters that change how the text around them is drawn without showing themselves: the
 * bidirectional embeddings, overrides, isolates and marks (a right-to-left override after
 * "Anna" makes "gepj.exe" read as "exe.jpeg"), zero-width spaces and word joiners that glue or split words,
 * the byte-order mark, soft hyphens, invisible operators, and the C0/C1 controls. Left in a
 * name they let one member pass for another or make a name read differently from what it is.
 * U+200C and U+200D stay: Persian, Indic scripts and emoji sequences need them.
 */
const INVISIBLE_CONTROLS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/g;

/** A person's name with every invisible control removed (see INVISIBLE_CONTROLS). */
export function stripInvisibleControls(text: string): string {
  return text.replace(INVISIBLE_CONTROLS, '');
}

/**
 * A required person name: invisible controls removed first, then trimmed, then at least one
 * character and at most `max`. A name made only of controls is therefore empty, and refused.
 */
export const personName = (max: number, requiredKey = 'validation.required') =>
  z
    .string({ error: requiredKey })
    .transform(stripInvisibleControls)
    .pipe(
      z.string().trim().min(1, { error: requiredKey }).max(max, { error: 'validation.tooLong' }),
    );

/** A member's display name, wherever it is set. */
export const displayNameField = () => personName(DISPLAY_NAME_MAX_LENGTH);

/** An optional name (first or last name): as personName, and an empty string clears it (null). */
export const optionalPersonName = (max: number) =>
  z
    .string({ error: 'validation.invalid' })
    .transform(stripInvisibleControls)
    .pipe(z.string().trim().max(max, { error: 'validation.tooLong' }))
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));
