import type { TFunction } from '@web/lib/translator';
import { notifications } from '@mantine/notifications';
import { ApiError } from '../../lib/api';

export type ListingAction = 'load' | 'add' | 'update' | 'delete' | 'status' | 'complete';

/**
 * The message for a failed listing action: the server's own (translated) message for input
 * problems, a fixed 'Failed to ... Please try again.' for server and network failures, and
 * the unexpected-error variant for anything that is not an API failure.
 */
export function listingErrorMessage(err: unknown, action: ListingAction, t: TFunction): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return t('myBooks.errors.authRequired');
    if (err.status >= 400 && err.status < 500 && err.status !== 429 && err.message)
      return err.message;
    return t(`myBooks.errors.${action}`);
  }
  return t(`myBooks.errors.${action}Unexpected`);
}

export function notifyError(err: unknown, action: ListingAction, t: TFunction) {
  notifications.show({ color: 'red', message: listingErrorMessage(err, action, t) });
}

export function notifySuccess(message: string) {
  notifications.show({ color: 'green', message });
}
