import { IconHeart, IconHeartFilled } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import { CardCornerToggle } from '../../components/CardCornerToggle';
import { useToggleWish, useWishedBookIds } from './api';

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
 * one cached list of wished book ids (no request per card).
 */
export function WishlistHeart({ bookId, title, sellerId, variant = 'button' }: WishlistHeartProps) {
  const { t } = useTranslation();
  const signedIn = useSession().status === 'signed-in';
  const ids = useWishedBookIds(signedIn);
  const toggle = useToggleWish();
  const wished = signedIn && !!ids.data?.has(bookId);
  return (
    <CardCornerToggle
      on={wished}
      pending={ids.isPending}
      onToggle={(next) => toggle.mutate({ bookId, wished: next })}
      label={
        !signedIn
          ? t('wishlist.heart.signIn', { title })
          : t(wished ? 'wishlist.heart.remove' : 'wishlist.heart.add', { title })
      }
      text={wished ? t('wishlist.heart.onList') : t('wishlist.heart.addShort')}
      icon={
        wished ? <IconHeartFilled size={18} aria-hidden /> : <IconHeart size={18} aria-hidden />
      }
      sellerId={sellerId}
      variant={variant}
      corner="right"
      color="red"
      testId="wishlist-heart"
    />
  );
}
