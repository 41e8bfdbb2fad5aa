import { Group } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram, IconBrandX } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import classes from './SocialLinks.module.css';

const SOCIAL = [
  { key: 'facebook', href: 'https://www.facebook.com/', Icon: IconBrandFacebook },
  { key: 'instagram', href: 'https://www.instagram.com/', Icon: IconBrandInstagram },
  { key: 'x', href: 'https://x.com/', Icon: IconBrandX },
] as const;

/**
 * Scaffale's social profiles as icon links (footer, contact page), drawn like Mantine's ActionIcon
 * (subtle grey or default, sizes md and lg) by plain anchors: the footer is on every page, and
 * ActionIcon brings its loading state's Transition and Loader with it.
 */
export function SocialLinks({
  label,
  variant = 'subtle',
  size = 'md',
  iconSize = 18,
}: {
  label?: string;
  variant?: 'subtle' | 'default';
  size?: 'md' | 'lg';
  iconSize?: number;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" role="group" aria-label={label}>
      {SOCIAL.map(({ key, href, Icon }) => (
        <a
          key={key}
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className={`mantine-focus-auto mantine-active ${classes.icon}`}
          data-variant={variant}
          data-size={size}
          aria-label={t(`footer.socialNames.${key}`)}
        >
          <Icon size={iconSize} aria-hidden />
        </a>
      ))}
    </Group>
  );
}
