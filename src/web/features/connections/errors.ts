import type { LocaleKey, TFunction } from '@web/lib/translator';
import { ApiError } from '../../lib/api';

/**
 * The message shown under a button: the server's own (already in the member's language) when it
 * explains a refusal, else the action's own failure text (`fallbackKey`).
 */
export function actionErrorMessage(err: unknown, fallbackKey: LocaleKey, t: TFunction): string {
  if (err instanceof ApiError && [400, 403, 409].includes(err.status) && err.message)
    return err.message;
  if (err instanceof ApiError && err.status === 404 && err.code === 'not_found' && err.message)
    return err.message;
  return t(fallbackKey);
}

/**
 * Starting a chat: a plain 404 means the chats service is missing, so 'Unable to start
 * conversation. Please try again.'
 */
export function chatErrorMessage(err: unknown, t: TFunction): string {
  if (err instanceof ApiError && [400, 403, 409].includes(err.status) && err.message)
    return err.message;
  return t('connections.errors.chat');
}
