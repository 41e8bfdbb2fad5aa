import { Button } from '@mantine/core';
import { IconHeart, IconHeartFilled } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useLocation } from '@web/lib/router';
import { useSession } from '../../lib/session';
import { useToggleWish, useWishedBookIds } from './api';
import classes from '../../components/CardCornerButton.module.css';

export interface WishlistHeartProps {
  /** The catalogue book the listing is of. */
  bookId: string;
  title: string;
  /** The seller: nobody wishes their own listing, so they get no heart. */
  sellerId?: string;
  /** 'overlay': a round button on a card's cover corner; 'button': a labelled button. */
  variant?: 'overlay' | 'button';
}

/**
 * Adds the listing's book to the member's wishlist, or removes it. Every heart on a page reads
 * one cached list of wished book ids (no request per card). A visitor is sent to sign in and
 * comes back to this page.
 */
export function WishlistHeart({ bookId, title, sellerId, variant = 'button' }: WishlistHeartProps) {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const me = session.status === 'signed-in' ? session.user.id : null;
  const ids = useWishedBookIds(!!me);
  const toggle = useToggleWish();
  if (session.status === 'loading' || (me && me === sellerId)) return null;

  const wished = !!me && !!ids.data?.has(bookId);
  const label = !me
    ? t('wishlist.heart.signIn', { title })
    : t(wished ? 'wishlist.heart.remove' : 'wishlist.heart.add', { title });
  const icon = wished ? (
    <IconHeartFilled size={18} aria-hidden />
  ) : (
    <IconHeart size={18} aria-hidden />
  );
  const back = `/login?redirect_to=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  const action = me
    ? {
        onClick: () => toggle.mutate({ bookId, wished: !wished }),
        'aria-pressed': wished,
        disabled: ids.isPending,
      }
    : { component: Link, to: back };

  if (variant === 'overlay') {
    // A plain element drawn as Mantine's white, round, large ActionIcon was: a page shows a heart
    // on each of its 24 to 200 cards (see BookCard).
    const common = {
      className: `${classes.overlay} ${classes.right}`,
      'aria-label': label,
      title: label,
      'data-testid': 'wishlist-heart',
    };
    return (
      <div className={classes.anchor}>
        {me ? (
          <button
            type="button"
            {...common}
            onClick={() => toggle.mutate({ bookId, wished: !wished })}
            aria-pressed={wished}
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
  return (
    <Button
      {...(action as object)}
      variant={wished ? 'light' : 'default'}
      color="red"
      leftSection={icon}
      w="fit-content"
      data-testid="wishlist-heart"
    >
      {wished ? t('wishlist.heart.onList') : t('wishlist.heart.addShort')}
    </Button>
  );
}
