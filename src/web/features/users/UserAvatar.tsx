import { Avatar } from '@mantine/core';
import { identiconDataUrl, initialsOf } from '@shared/identicon';

/** The member's picture, else the identicon of their seed, else their initials. */
export function UserAvatar({
  name,
  avatarUrl,
  avatarSeed,
  size = 'lg',
}: {
  name: string;
  avatarUrl: string | null;
  avatarSeed: string | null | undefined;
  size?: number | string;
}) {
  const src = avatarUrl || (avatarSeed ? identiconDataUrl(avatarSeed, 128) : null);
  return (
    <Avatar src={src} alt={name} size={size} radius="xl" color="brown">
      {initialsOf(name)}
    </Avatar>
  );
}
