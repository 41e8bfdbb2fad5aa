import {
  AppShell,
  Avatar,
  Box,
  Burger,
  Center,
  Drawer,
  Group,
  Loader,
  NavLink,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconAd2,
  IconBooks,
  IconChevronRight,
  IconHeart,
  IconLayoutDashboard,
  IconMessages,
  IconSettings,
  IconStarFilled,
  IconUsers,
} from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, Navigate, Outlet, useLocation, useParams } from '@web/lib/router';
import { SIDEBAR_COLLAPSE_WIDTH } from '@shared/constants';
import { displayNameOf, useSession, type SessionUser } from '../../lib/session';
import { privateSections } from './privateArea';
import { ChatsUnreadBadge } from '../chats';
import { dashboardPath } from './safeRedirect';
import classes from './PrivateAreaLayout.module.css';

const ICONS: Record<string, typeof IconBooks> = {
  dashboard: IconLayoutDashboard,
  books: IconBooks,
  wishlist: IconHeart,
  chats: IconMessages,
  ads: IconAd2,
  friends: IconUsers,
  settings: IconSettings,
};

/** The seller rating shown in the sidebar is fixed at 5.0. */
const SIDEBAR_RATING = 5;

/**
 * /profile/:userId/* — only the owner gets in. While the session is restored it says so; a
 * visitor goes to /login with the way back; another member's id (or none) opens one's own
 * dashboard; a member who signs out here goes home.
 */
export default function PrivateAreaLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const { userId } = useParams();
  const location = useLocation();
  const wasSignedIn = useRef(false);
  useEffect(() => {
    if (session.status === 'signed-in') wasSignedIn.current = true;
  }, [session.status]);

  if (session.status === 'loading') {
    return (
      <Center py={96}>
        <Stack align="center" role="status" aria-live="polite">
          <Loader aria-hidden />
          <Text>{t('auth.restoring')}</Text>
        </Stack>
      </Center>
    );
  }
  if (session.status === 'signed-out') {
    if (wasSignedIn.current && !session.expired) return <Navigate to="/" replace />;
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?redirect_to=${encodeURIComponent(back)}`} replace />;
  }
  if (!userId || userId !== session.user.id) {
    return <Navigate to={dashboardPath(session.user.id)} replace />;
  }
  return <PrivateShell user={session.user} />;
}

function PrivateShell({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Below 1024 px the sidebar becomes a drawer.
  const isDrawer = useMediaQuery(`(max-width: ${SIDEBAR_COLLAPSE_WIDTH - 0.02}px)`, false);
  const segment = location.pathname.split('/')[3] || 'dashboard';
  const current = privateSections.find((s) => s.path === segment);

  return (
    <>
      <AppShell
        mode="static"
        padding={{ base: 'md', sm: 'lg' }}
        navbar={{ width: 264, breakpoint: SIDEBAR_COLLAPSE_WIDTH, collapsed: { mobile: true } }}
        className={classes.shell}
      >
        {!isDrawer && (
          <AppShell.Navbar p="md" className={classes.navbar}>
            <Sidebar user={user} active={segment} />
          </AppShell.Navbar>
        )}
        {/* The shell's <main> holds the page already: one main landmark, so this is a div. */}
        <AppShell.Main component="div" className={classes.main}>
          {isDrawer && (
            <Group className={classes.mobileHeader} gap="sm" wrap="nowrap">
              <Burger
                opened={opened}
                onClick={toggle}
                size="sm"
                aria-label={opened ? t('privateArea.closeMenu') : t('privateArea.openMenu')}
              />
              <Text fw={700} fz="lg" data-testid="private-area-section">
                {current ? t(current.labelKey) : t('privateArea.title')}
              </Text>
            </Group>
          )}
          <Outlet />
        </AppShell.Main>
      </AppShell>
      <Drawer
        opened={opened && !!isDrawer}
        onClose={close}
        title={t('privateArea.title')}
        size={280}
        closeButtonProps={{ 'aria-label': t('privateArea.closeMenu') }}
      >
        <Sidebar user={user} active={segment} onNavigate={close} />
      </Drawer>
    </>
  );
}

function Sidebar({
  user,
  active,
  onNavigate,
}: {
  user: SessionUser;
  active: string;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const name = displayNameOf(user);
  return (
    <Stack gap="lg">
      <Group gap="sm" wrap="nowrap">
        <Avatar color="brown" radius="xl" size="lg" aria-hidden>
          {Array.from(name)[0]?.toLocaleUpperCase() ?? '?'}
        </Avatar>
        <Box miw={0}>
          <Text fw={700} truncate="end" data-testid="private-area-name">
            {name}
          </Text>
          <Group gap={2} wrap="nowrap" c="yellow.6" aria-hidden>
            {Array.from({ length: 5 }, (_, i) => (
              <IconStarFilled key={i} size={14} />
            ))}
            <Text span size="sm" c="dimmed" ml={4}>
              {SIDEBAR_RATING.toFixed(1)}
            </Text>
          </Group>
          <VisuallyHidden>
            {t('privateArea.rating', { rating: SIDEBAR_RATING.toFixed(1) })}
          </VisuallyHidden>
        </Box>
      </Group>
      <Box component="nav" aria-label={t('privateArea.navigation')}>
        <Stack gap={4}>
          {privateSections.map((section) => {
            const Icon = ICONS[section.path] ?? IconChevronRight;
            const isActive = section.path === active;
            return (
              <NavLink
                key={section.path}
                component={Link}
                to={`/profile/${user.id}/${section.path}`}
                label={t(section.labelKey)}
                leftSection={<Icon size={18} aria-hidden />}
                rightSection={section.path === 'chats' ? <ChatsUnreadBadge /> : undefined}
                active={isActive}
                aria-current={isActive ? 'page' : undefined}
                variant="light"
                onClick={onNavigate}
              />
            );
          })}
        </Stack>
      </Box>
    </Stack>
  );
}
