import {
  Anchor,
  Box,
  Burger,
  Container,
  Drawer,
  Group,
  Image,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { NavLink, Link, Outlet, ScrollRestoration } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Suspense } from 'react';
import { MOBILE_MAX_WIDTH } from '@shared/constants';
import { LanguageSwitcher } from './LanguageSwitcher';
import { HeaderAccount } from './HeaderAccount';
import { Footer } from './Footer';
import { useMobileViewport } from './useMobileViewport';
import { PageLoader } from '../components/PageLoader';
import classes from './Layout.module.css';

const NAV_LINKS = [
  { to: '/library', key: 'nav.library' },
  { to: '/community', key: 'nav.community' },
  { to: '/about', key: 'nav.about' },
] as const;

export function Layout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_MAX_WIDTH}px)`, false);
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
              <Group component="nav" aria-label={t('nav.mainNavigation')} gap="lg">
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
                <LanguageSwitcher />
                <HeaderAccount />
              </Group>
            ) : (
              <Burger
                opened={opened}
                onClick={toggle}
                aria-label={opened ? t('nav.closeMenu') : t('nav.openMenu')}
              />
            )}
          </Group>
        </Container>
      </header>
      <Drawer
        opened={opened && !!isMobile}
        onClose={close}
        title={t('nav.mobileMenu')}
        position="right"
        size="xs"
        closeButtonProps={{ 'aria-label': t('nav.closeMenu') }}
      >
        <Stack component="nav" aria-label={t('nav.mainNavigation')} gap="md">
          {NAV_LINKS.map((l) => (
            <Anchor key={l.to} component={NavLink} to={l.to} onClick={close} fz="lg">
              {t(l.key)}
            </Anchor>
          ))}
          <LanguageSwitcher fullWidth />
          <HeaderAccount stacked onNavigate={close} />
        </Stack>
      </Drawer>
      <main id="main" className={classes.main} tabIndex={-1}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
    </Box>
  );
}
