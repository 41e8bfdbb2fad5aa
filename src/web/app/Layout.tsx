import { Anchor, Box, Burger, Container, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { NavLink, Link, Outlet, ScrollRestoration } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { lazy, Suspense, useState } from 'react';
import { NAV_LINKS } from './navLinks';
import { HeaderAccount } from './HeaderAccount';
import { useSession } from '../lib/session';
import { Footer } from './Footer';
import { CookieConsent } from '../features/cookies';
import { ProfileGate } from '../features/accounts';
import { useMobileViewport } from './useMobileViewport';
import { PageLoader } from '../components/PageLoader';
import { withLocaleGroups } from '../lib/i18n';
import classes from './Layout.module.css';

const MobileMenu = lazy(() => import('./MobileMenu'));
// The language select (Mantine's input, its label, chevron and styles) is shown in the top bar on
// wider screens only (a phone has it in the drawer): its own chunk, not the phone's first screen.
const LanguageSwitcher = lazy(() =>
  import('./LanguageSwitcher').then((m) => ({ default: m.LanguageSwitcher })),
);
// The bell is its own chunk, fetched only for signed-in members, with its texts.
const NotificationBell = lazy(() =>
  withLocaleGroups(['notifications'], () => import('../features/notifications/NotificationBell')),
);

/** The widest screen whose header shows the menu button instead of the links. */
export const HEADER_MENU_MAX_WIDTH = 991;

export function Layout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const signedIn = useSession().status === 'signed-in';
  // The drawer's code is fetched on the first tap, not with the page.
  const [menuWanted, setMenuWanted] = useState(false);
  // Read at the first render, so a phone does not render the desktop header and then redo it.
  // Up to HEADER_MENU_MAX_WIDTH (a phone, a tablet) the links are in the menu: five links,
  // the language and the account buttons need about 900 px in Italian.
  const isMobile = useMediaQuery(`(max-width: ${HEADER_MENU_MAX_WIDTH}px)`, false, {
    getInitialValueInEffect: false,
  });
  useMobileViewport();

  return (
    <Box className={classes.page}>
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <header className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <UnstyledButton
              component={Link}
              to="/"
              className={classes.brand}
              aria-label={t('nav.home')}
            >
              <Image src="/icon.svg" alt="" w={32} h={32} />
              <Text fw={700} fz="lg" ff="Georgia, serif">
                {t('app.name')}
              </Text>
            </UnstyledButton>
            {!isMobile && (
              <Group
                component="nav"
                aria-label={t('nav.mainNavigation')}
                gap="md"
                wrap="nowrap"
                className={classes.nav}
              >
                {NAV_LINKS.map((l) => (
                  <Anchor
                    key={l.to}
                    component={NavLink}
                    to={l.to}
                    className={classes.navLink}
                    c="dark"
                  >
                    {t(l.key)}
                  </Anchor>
                ))}
              </Group>
            )}
            {!isMobile ? (
              <Group gap="sm" wrap="nowrap">
                <Suspense fallback={<Box w={110} h={30} />}>
                  <LanguageSwitcher />
                </Suspense>
                {signedIn && (
                  <Suspense fallback={null}>
                    <NotificationBell />
                  </Suspense>
                )}
                <HeaderAccount />
              </Group>
            ) : (
              <Group gap="xs" wrap="nowrap">
                {signedIn && (
                  <Suspense fallback={null}>
                    <NotificationBell />
                  </Suspense>
                )}
                <Burger
                  opened={opened}
                  onClick={() => {
                    setMenuWanted(true);
                    toggle();
                  }}
                  aria-label={opened ? t('nav.closeMenu') : t('nav.openMenu')}
                />
              </Group>
            )}
          </Group>
        </Container>
      </header>
      {isMobile && menuWanted && (
        <Suspense fallback={null}>
          <MobileMenu opened={opened} onClose={close} />
        </Suspense>
      )}
      <main id="main" className={classes.main} tabIndex={-1}>
        <Suspense fallback={<PageLoader />}>
          <ProfileGate>
            <Outlet />
          </ProfileGate>
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
      <CookieConsent />
    </Box>
  );
}
