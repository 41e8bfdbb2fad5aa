import { Button } from '@mantine/core';
import { IconEye, IconEyeFilled } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useLocation } from '@web/lib/router';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/notify';
import { ApiError } from '../../lib/api';
import { useToggleWatch, useWatchedIds } from './api';
import classes from '../../components/CardCornerButton.module.css';

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
 * stops. Every button on a page reads one cached list of watched ids. A visitor is sent to sign
 * in and comes back to this page.
 */
export function WatchButton({ listingId, title, sellerId, variant = 'button' }: WatchButtonProps) {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const me = session.status === 'signed-in' ? session.user.id : null;
  const ids = useWatchedIds(!!me);
  const toggle = useToggleWatch();
  if (session.status === 'loading' || (me && me === sellerId)) return null;

  const watching = !!me && !!ids.data?.has(listingId);
  const label = me ? t('watching.button.label', { title }) : t('watching.button.signIn', { title });
  const icon = watching ? (
    <IconEyeFilled size={18} aria-hidden />
  ) : (
    <IconEye size={18} aria-hidden />
  );
  const back = `/login?redirect_to=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  const onClick = () =>
    toggle.mutate(
      { listingId, watching: !watching },
      {
        onError: (err) =>
          notify('red', err instanceof ApiError ? err.message : t('watching.failed')),
      },
    );

  if (variant === 'overlay') {
    const common = {
      className: `${classes.overlay} ${classes.left}`,
      'aria-label': label,
      title: label,
      'data-testid': 'watch-button',
    };
    return (
      <div className={classes.anchor}>
        {me ? (
          <button
            type="button"
            {...common}
            onClick={onClick}
            aria-pressed={watching}
            disabled={ids.isPending}
          >
            {icon}
          </button>
        ) : (
          <Link to={back} {...common}>
            {icon}
          </Link>
        )}
      </div>
    );
  }
  return me ? (
    <Button
      onClick={onClick}
      aria-pressed={watching}
      aria-label={label}
      disabled={ids.isPending}
      variant={watching ? 'light' : 'default'}
      leftSection={icon}
      w="fit-content"
      data-testid="watch-button"
    >
      {watching ? t('watching.button.watching') : t('watching.button.watch')}
    </Button>
  ) : (
    <Button
      component={Link}
      to={back}
      aria-label={label}
      variant="default"
      leftSection={icon}
      w="fit-content"
      data-testid="watch-button"
    >
      {t('watching.button.watch')}
    </Button>
  );
}
