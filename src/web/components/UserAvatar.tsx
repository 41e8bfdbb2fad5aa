import { Avatar, type AvatarProps } from '@mantine/core';
import { useMemo } from 'react';
import { identiconDataUrl, initialsOf } from '@shared/identicon';

/**
 * A member's picture, in this fallback order: the uploaded image, else the identicon drawn
 * locally from their seed (a hash of the id), else their initials (also when an image fails to
 * load). `alt` is the name unless said otherwise; `decorative` when the name is already written
 * beside it, so screen readers do not hear it twice.
 */
export function UserAvatar({
  name,
  avatarUrl,
  avatarSeed,
  size = 'lg',
  alt,
  decorative = false,
  ...props
}: {
  name: string;
  avatarUrl: string | null;
  avatarSeed: string | null | undefined;
  size?: number | string;
  alt?: string;
  decorative?: boolean;
} & Omit<AvatarProps, 'src' | 'alt' | 'children' | 'size'>) {
  const identicon = useMemo(
    () => (avatarSeed ? identiconDataUrl(avatarSeed, 128) : null),
    [avatarSeed],
  );
  return (
    <Avatar
      src={avatarUrl || identicon}
      alt={decorative ? '' : (alt ?? name)}
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
