import { ActionIcon, Group, type ActionIconProps } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram, IconBrandX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const SOCIAL = [
  { key: 'facebook', href: 'https://www.facebook.com/', Icon: IconBrandFacebook },
  { key: 'instagram', href: 'https://www.instagram.com/', Icon: IconBrandInstagram },
  { key: 'x', href: 'https://x.com/', Icon: IconBrandX },
] as const;

/** Scaffale's social profiles as icon links (footer, contact page). */
export function SocialLinks({
  label,
  variant = 'subtle',
  size,
  iconSize = 18,
}: {
  label?: string;
  variant?: ActionIconProps['variant'];
  size?: ActionIconProps['size'];
  iconSize?: number;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" role="group" aria-label={label}>
      {SOCIAL.map(({ key, href, Icon }) => (
        <ActionIcon
          key={key}
          component="a"
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          variant={variant}
          color={variant === 'subtle' ? 'gray' : undefined}
          size={size}
          aria-label={t(`footer.socialNames.${key}`)}
        >
          <Icon size={iconSize} aria-hidden />
        </ActionIcon>
      ))}
    </Group>
  );
}
