import { Button } from '@mantine/core';
import { IconHeart, IconHeartFilled } from '@tabler/icons-react';
import { Link, useLocation } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { loginPath } from './format';

/**
 * Like with its count. A member toggles it (aria-pressed says which); a visitor gets a link to
 * sign in that comes back to this page.
 */
export function LikeButton({
  liked,
  count,
  signedIn,
  onToggle,
  pending,
  label,
}: {
  liked: boolean;
  count: number;
  signedIn: boolean;
  onToggle: () => void;
  pending?: boolean;
  /** The accessible name, e.g. 'Like post' / 'Like comment'. */
  label: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const icon = liked ? (
    <IconHeartFilled size={16} aria-hidden />
  ) : (
    <IconHeart size={16} aria-hidden />
  );
  const name = t('community.likes', { label, count });
  if (!signedIn)
    return (
      <Button
        component={Link}
        to={loginPath(location.pathname + location.search)}
        variant="subtle"
        size="compact-sm"
        color="dark"
        leftSection={icon}
        aria-label={name}
        data-testid="like"
      >
        {count}
      </Button>
    );
  return (
    <Button
      variant={liked ? 'light' : 'subtle'}
      color={liked ? 'red.9' : 'dark'}
      size="compact-sm"
      leftSection={icon}
      aria-pressed={liked}
      aria-label={name}
      // Not disabled while in flight: the keyboard focus stays on the button.
      onClick={() => !pending && onToggle()}
      data-testid="like"
    >
      {count}
    </Button>
  );
}
