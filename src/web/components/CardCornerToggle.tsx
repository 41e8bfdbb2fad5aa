import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation } from '@web/lib/router';
import { useSession } from '../lib/session';
import classes from './CardCornerToggle.module.css';

export interface CardCornerToggleProps {
  /** On for this member (watched, wished); false for a visitor. */
  on: boolean;
  /** The member's list is still loading: the button waits. */
  pending: boolean;
  /** The feature's mutation: turns it on or off (and says so when it fails). */
  onToggle: (on: boolean) => void;
  /** The accessible name (also the overlay's tooltip), for this state and session. */
  label: string;
  /** The labelled button's text. */
  text: string;
  /** Whether the labelled button is named by `label` rather than by its text. */
  labelButton?: boolean;
  icon: ReactNode;
  /** The seller: nobody watches or wishes their own listing, so they get no button. */
  sellerId?: string;
  /** 'overlay': a round button on a card's cover corner; 'button': a labelled button. */
  variant?: 'overlay' | 'button';
  corner: 'left' | 'right';
  color?: string;
  testId: string;
}

/**
 * A member's toggle on a listing (the watch eye, the wishlist heart): a round button on a card's
 * cover corner, or a labelled button on the book page. A visitor gets a link to sign in that
 * comes back to this page. Nothing while the session loads, nor on the member's own listing.
 * The overlay is a plain element drawn as Mantine's white, round, large ActionIcon: a page shows
 * two on each of its 24 to 200 cards (see BookCard).
 */
export function CardCornerToggle(props: CardCornerToggleProps) {
  const { on, pending, onToggle, label, text, icon, sellerId, corner, testId } = props;
  const session = useSession();
  const location = useLocation();
  const me = session.status === 'signed-in' ? session.user.id : null;
  if (session.status === 'loading' || (me && me === sellerId)) return null;
  const back = `/login?redirect_to=${encodeURIComponent(`${location.pathname}${location.search}`)}`;

  if (props.variant === 'overlay') {
    const common = {
      className: `${classes.overlay} ${classes[corner]}`,
      'aria-label': label,
      title: label,
      'data-testid': testId,
    };
    return (
      <div className={classes.anchor}>
        {me ? (
          <button
            type="button"
            {...common}
            onClick={() => onToggle(!on)}
            aria-pressed={on}
            disabled={pending}
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
  const shared = {
    'aria-label': props.labelButton ? label : undefined,
    color: props.color,
    leftSection: icon,
    w: 'fit-content',
    'data-testid': testId,
  };
  return me ? (
    <Button
      {...shared}
      onClick={() => onToggle(!on)}
      aria-pressed={on}
      disabled={pending}
      variant={on ? 'light' : 'default'}
    >
      {text}
    </Button>
  ) : (
    <Button {...shared} component={Link} to={back} variant="default">
      {text}
    </Button>
  );
}
