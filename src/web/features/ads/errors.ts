import type { TFunction } from '@web/lib/translator';
import { ApiError } from '../../lib/api';

export type AdAction = 'save' | 'load' | 'delete' | 'status' | 'analytics' | 'review' | 'reviews';

/**
 * The message of a failed ad action: the server's own (translated) message for what the person
 * can fix (4xx), a fixed 'Failed to ...' for server and network failures.
 */
export function adErrorMessage(err: unknown, action: AdAction, t: TFunction): string {
  if (err instanceof ApiError) {
    if (err.status >= 400 && err.status < 500 && err.status !== 429 && err.message)
      return err.message;
    if (err.status === 0 && err.message) return err.message;
  }
  return t(`ads.errors.${action}`);
}
