import { Avatar, type AvatarProps } from '@mantine/core';
import { useMemo } from 'react';
import { identiconDataUrl, initialsOf } from '@shared/identicon';
import type { ChatUser } from './types';

/** A member's picture, else their identicon, else initials; decorative beside their name. */
export function ChatAvatar({
  user,
  ...props
}: { user: Pick<ChatUser, 'displayName' | 'avatarUrl' | 'avatarSeed'> } & Omit<
  AvatarProps,
  'src' | 'alt' | 'children'
>) {
  const seed = user.avatarSeed;
  const identicon = useMemo(() => (seed ? identiconDataUrl(seed, 80) : null), [seed]);
  return (
    <Avatar
      src={user.avatarUrl || identicon}
      alt=""
      aria-hidden
      radius="xl"
      color="brown"
      {...props}
    >
      {initialsOf(user.displayName)}
    </Avatar>
  );
}
