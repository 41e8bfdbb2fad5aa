import { Avatar, type AvatarProps } from '@mantine/core';
import { useMemo } from 'react';
import { identiconDataUrl, initialsOf } from '@shared/identicon';
import { displayNameOf } from '../../lib/session';

export interface AvatarUser {
  email: string;
  displayName: string;
  avatarUrl: string | null;
  avatarSeed?: string | null;
}

/**
 * The member's picture, in this fallback order: the uploaded image, else the identicon drawn
 * locally from avatarSeed (a hash of the id), else the initials (also if an image fails to load).
 */
export function UserAvatar({
  user,
  alt,
  ...props
}: { user: AvatarUser; alt?: string } & Omit<AvatarProps, 'src' | 'alt' | 'children'>) {
  const seed = user.avatarSeed;
  const identicon = useMemo(() => (seed ? identiconDataUrl(seed, 96) : null), [seed]);
  const name = displayNameOf(user);
  return (
    <Avatar
      src={user.avatarUrl || identicon}
      alt={alt ?? name}
      radius="xl"
      color="brown"
      {...props}
    >
      {initialsOf(name)}
    </Avatar>
  );
}
