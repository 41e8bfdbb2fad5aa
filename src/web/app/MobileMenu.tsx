import { Anchor, Drawer, Stack } from '@mantine/core';
import { NavLink } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { LanguageSwitcher } from './LanguageSwitcher';
import { HeaderAccount } from './HeaderAccount';
import { MOBILE_EXTRA_LINKS, NAV_LINKS } from './navLinks';

/** The drawer of the mobile menu; its own chunk, fetched on the first tap of the menu button. */
export default function MobileMenu({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={t('nav.mobileMenu')}
      position="right"
      size="xs"
      closeButtonProps={{ 'aria-label': t('nav.closeMenu') }}
    >
      <Stack component="nav" aria-label={t('nav.mainNavigation')} gap="md">
        {[...NAV_LINKS, ...MOBILE_EXTRA_LINKS].map((l) => (
          <Anchor key={l.to} component={NavLink} to={l.to} onClick={onClose} fz="lg">
            {t(l.key)}
          </Anchor>
        ))}
        <LanguageSwitcher fullWidth />
        <HeaderAccount stacked onNavigate={onClose} />
      </Stack>
    </Drawer>
  );
}
