import { hasKey, t } from '../i18n';
import type { Language } from '@shared/constants';

/** better-auth's error codes mapped to our locale keys (everything else keeps its own text). */
const messageKeys: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: 'auth.errors.invalidCredentials',
  INVALID_USERNAME_OR_PASSWORD: 'auth.errors.invalidCredentials',
  INVALID_PASSWORD: 'auth.errors.invalidCredentials',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'auth.errors.invalidCredentials',
  INVALID_EMAIL: 'validation.invalidEmail',
  PASSWORD_TOO_SHORT: 'validation.passwordTooShort',
  PASSWORD_TOO_LONG: 'auth.errors.passwordTooLong',
  USER_ALREADY_EXISTS: 'auth.errors.emailTaken',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'auth.errors.emailTaken',
  USERNAME_IS_ALREADY_TAKEN: 'auth.errors.usernameTaken',
  USERNAME_TOO_SHORT: 'auth.errors.usernameInvalid',
  USERNAME_TOO_LONG: 'auth.errors.usernameInvalid',
  INVALID_USERNAME: 'auth.errors.usernameInvalid',
  INVALID_TOKEN: 'auth.errors.invalidToken',
  TOKEN_EXPIRED: 'auth.errors.invalidToken',
  EMAIL_NOT_VERIFIED: 'auth.errors.emailNotVerified',
  EMAIL_ALREADY_VERIFIED: 'auth.errors.emailAlreadyVerified',
  INVALID_ORIGIN: 'errors.forbidden',
  MISSING_OR_NULL_ORIGIN: 'errors.forbidden',
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: 'errors.forbidden',
  INVALID_CALLBACK_URL: 'auth.errors.invalidCallbackUrl',
  INVALID_REDIRECT_URL: 'auth.errors.invalidCallbackUrl',
  INVALID_ERROR_CALLBACK_URL: 'auth.errors.invalidCallbackUrl',
  INVALID_NEW_USER_CALLBACK_URL: 'auth.errors.invalidCallbackUrl',
  PROVIDER_NOT_FOUND: 'auth.errors.providerUnavailable',
  SESSION_EXPIRED: 'account.sessionExpired',
  FAILED_TO_GET_SESSION: 'account.sessionExpired',
  USER_NOT_FOUND: 'auth.errors.invalidCredentials',
  ACCOUNT_SUSPENDED: 'moderation.errors.accountSuspended',
  VALIDATION_ERROR: 'errors.validation',
  BODY_MUST_BE_AN_OBJECT: 'errors.badRequest',
  MISSING_FIELD: 'validation.required',
};

/** Field a better-auth error is about, so forms can show it beside the input. */
const fieldOf: Record<string, string> = {
  INVALID_EMAIL: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
  USER_ALREADY_EXISTS: 'email',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email',
  USERNAME_IS_ALREADY_TAKEN: 'username',
  USERNAME_TOO_SHORT: 'username',
  USERNAME_TOO_LONG: 'username',
  INVALID_USERNAME: 'username',
};

const statusCodes: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limited',
};

/**
 * better-call's validation message lists issues as '[body.email] Invalid email address; ...'.
 * Each becomes a field message from our catalogue.
 */
function validationFields(message: string, lang: Language): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of message.matchAll(/\[(?:body|query)\.([\w.]+)\] ([^;]*)/g)) {
    const [, field, issue] = match;
    if (fields[field]) continue;
    const key = /received undefined|required/i.test(issue)
      ? 'validation.required'
      : field === 'email'
        ? 'validation.invalidEmail'
        : 'validation.invalid';
    fields[field] = t(lang, key);
  }
  return fields;
}

const fallbackMessages: Record<number, string> = {
  400: 'errors.badRequest',
  401: 'errors.unauthorized',
  403: 'errors.forbidden',
  404: 'errors.notFound',
};

export interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

/**
 * Turns better-auth's error body ({code, message}) into ours, in the request's language.
 * `code` is better-auth's code in lower case (invalid_email_or_password, user_already_exists, ...)
 * so clients can tell the cases apart; `message` is our catalogue's text.
 */
export function convertAuthError(
  status: number,
  body: unknown,
  lang: Language,
): { status: number; body: ErrorBody } {
  const raw = (body && typeof body === 'object' ? body : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const code = typeof raw.code === 'string' ? raw.code : undefined;
  // A duplicate e-mail is a conflict, whatever status the library picked.
  const finalStatus = code?.startsWith('USER_ALREADY_EXISTS') ? 409 : status;
  const key = code ? messageKeys[code] : undefined;
  let message: string;
  if (key && hasKey(key)) message = t(lang, key);
  else if (typeof raw.message === 'string' && raw.message) message = raw.message;
  else message = t(lang, fallbackMessages[finalStatus] ?? 'errors.general');
  if (code === 'VALIDATION_ERROR' && typeof raw.message === 'string') {
    const fields = validationFields(raw.message, lang);
    const keys = Object.keys(fields);
    return {
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: keys.length === 1 ? fields[keys[0]] : t(lang, 'errors.validation'),
          ...(keys.length ? { fields } : {}),
        },
      },
    };
  }
  const field = code ? fieldOf[code] : undefined;
  return {
    status: finalStatus,
    body: {
      error: {
        code: code ? code.toLowerCase() : (statusCodes[finalStatus] ?? 'error'),
        message,
        ...(field ? { fields: { [field]: message } } : {}),
      },
    },
  };
}
