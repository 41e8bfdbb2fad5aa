import { PASSWORD_MIN_LENGTH } from '@shared/constants';
import { emailField } from '@shared/schemas/common';
import { DISPLAY_NAME_MAX_LENGTH, stripInvisibleControls } from '@shared/names';
import { USERNAME_PATTERN } from '@shared/schemas/profile';

// Validators of the account forms. They answer locale keys (translated where they are shown), so
// a language switch re-words the messages already on screen.
const email = emailField();

export function requiredKey(value: string): string | null {
  return value.trim() ? null : 'validation.required';
}

export function emailKey(value: string, emptyKey = 'validation.required'): string | null {
  const v = value.trim();
  if (!v) return emptyKey;
  const result = email.safeParse(v);
  return result.success ? null : (result.error.issues[0]?.message ?? 'validation.invalidEmail');
}

export function newPasswordKey(value: string): string | null {
  if (!value) return 'validation.required';
  return value.length >= PASSWORD_MIN_LENGTH ? null : 'validation.passwordTooShort';
}

export function confirmPasswordKey(value: string, password: string): string | null {
  if (!value) return 'validation.required';
  return value === password ? null : 'validation.passwordsNotMatch';
}

/** The display name, as the server reads it: invisible controls removed, 1 to 50 characters. */
export function displayNameKey(value: string): string | null {
  const v = stripInvisibleControls(value).trim();
  if (!v) return 'validation.required';
  return v.length > DISPLAY_NAME_MAX_LENGTH ? 'validation.tooLong' : null;
}

export function usernameKey(value: string): string | null {
  const v = value.trim();
  if (!v) return 'validation.required';
  return USERNAME_PATTERN.test(v) ? null : 'profile.errors.usernameInvalid';
}
