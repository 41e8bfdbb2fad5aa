import { Avatar, type AvatarProps } from '@mantine/core';
import { useMemo } from 'react';
import { identiconDataUrl, initialsOf } from '@shared/identicon';

/**
 * The member's picture, else the identicon of their seed, else their initials. `decorative` when
 * their name is already written beside it, so screen readers do not hear it twice.
 */
export function UserAvatar({
  name,
  avatarUrl,
  avatarSeed,
  size = 'lg',
  decorative = false,
  ...props
}: {
  name: string;
  avatarUrl: string | null;
  avatarSeed: string | null | undefined;
  size?: number | string;
  decorative?: boolean;
} & Omit<AvatarProps, 'src' | 'alt' | 'children' | 'size'>) {
  const identicon = useMemo(
    () => (avatarSeed ? identiconDataUrl(avatarSeed, 128) : null),
    [avatarSeed],
  );
  return (
    <Avatar
      src={avatarUrl || identicon}
      alt={decorative ? '' : name}
      aria-hidden={decorative || undefined}
      size={size}
      radius="xl"
      color="brown"
      {...props}
    >
      {initialsOf(name)}
    </Avatar>
  );
}
