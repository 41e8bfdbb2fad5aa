import { PASSWORD_MIN_LENGTH } from '@shared/constants';
import { emailField } from '@shared/schemas/common';

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
