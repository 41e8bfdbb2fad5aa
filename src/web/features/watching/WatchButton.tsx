import { IconEye, IconEyeFilled } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/notify';
import { ApiError } from '../../lib/api';
import { CardCornerToggle } from '../../components/CardCornerToggle';
import { useToggleWatch, useWatchedIds } from './api';

export interface WatchButtonProps {
  listingId: string;
  title: string;
  /** The seller: nobody watches their own listing, so they get no button. */
  sellerId?: string;
  /** 'overlay': a round button on a card's cover corner; 'button': a labelled button. */
  variant?: 'overlay' | 'button';
}

/**
 * Watches a listing (told when its price drops, it is reserved, sold or available again), or
 * stops. Every button on a page reads one cached list of watched ids.
 */
export function WatchButton({ listingId, title, sellerId, variant = 'button' }: WatchButtonProps) {
  const { t } = useTranslation();
  const signedIn = useSession().status === 'signed-in';
  const ids = useWatchedIds(signedIn);
  const toggle = useToggleWatch();
  const watching = signedIn && !!ids.data?.has(listingId);
  return (
    <CardCornerToggle
      on={watching}
      pending={ids.isPending}
      onToggle={(next) =>
        toggle.mutate(
          { listingId, watching: next },
          {
            onError: (err) =>
              notify('red', err instanceof ApiError ? err.message : t('watching.failed')),
          },
        )
      }
      label={
        signedIn ? t('watching.button.label', { title }) : t('watching.button.signIn', { title })
      }
      labelButton
      text={watching ? t('watching.button.watching') : t('watching.button.watch')}
      icon={watching ? <IconEyeFilled size={18} aria-hidden /> : <IconEye size={18} aria-hidden />}
      sellerId={sellerId}
      variant={variant}
      corner="left"
      testId="watch-button"
    />
  );
}
