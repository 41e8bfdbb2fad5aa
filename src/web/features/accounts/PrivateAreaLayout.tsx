import {
  AppShell,
  Box,
  Center,
  Group,
  Loader,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAd2,
  IconBooks,
  IconChevronRight,
  IconHeart,
  IconLayoutDashboard,
  IconMessages,
  IconSettings,
  IconUsers,
} from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, Navigate, Outlet, useLocation, useParams } from '@web/lib/router';
import { SIDEBAR_COLLAPSE_WIDTH } from '@shared/constants';
import { displayNameOf, useSession, type SessionUser } from '../../lib/session';
import { privateSections } from './privateArea';
import { ChatsUnreadBadge } from '../chats';
import { usePublicProfile } from '../users';
import { MemberRating } from '../../components/MemberRating';
import { UserAvatar } from '../../components/UserAvatar';
import { UnconfirmedBanner } from './UnconfirmedBanner';
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
    // /profile/settings (a section's name without the id) opens that section of their own area.
    const section = privateSections.find((s) => s.path === userId);
    if (section)
      return (
        <Navigate
          to={`/profile/${encodeURIComponent(session.user.id)}/${section.path}${location.search}`}
          replace
        />
      );
    return <Navigate to={dashboardPath(session.user.id)} replace />;
  }
  return <PrivateShell user={session.user} />;
}

function PrivateShell({ user }: { user: SessionUser }) {
  const location = useLocation();
  // Below 1024 px the sidebar becomes a strip of section links above the page: the shell's own
  // menu button stays the only menu button on a phone.
  const isNarrow = useMediaQuery(`(max-width: ${SIDEBAR_COLLAPSE_WIDTH - 0.02}px)`, false);
  const segment = location.pathname.split('/')[3] || 'dashboard';

  return (
    <AppShell
      mode="static"
      padding={{ base: 'md', sm: 'lg' }}
      navbar={{ width: 264, breakpoint: SIDEBAR_COLLAPSE_WIDTH, collapsed: { mobile: true } }}
      className={classes.shell}
    >
      {!isNarrow && (
        <AppShell.Navbar p="md" className={classes.navbar}>
          <Stack gap="lg">
            <Identity user={user} />
            <SectionLinks user={user} active={segment} />
          </Stack>
        </AppShell.Navbar>
      )}
      {/* The shell's <main> holds the page already: one main landmark, so this is a div. */}
      <AppShell.Main component="div" className={classes.main}>
        {isNarrow && (
          <Stack gap="xs" className={classes.mobileHeader}>
            <Identity user={user} compact />
            <SectionLinks user={user} active={segment} strip />
          </Stack>
        )}
        <UnconfirmedBanner user={user} />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The member as others see them: the uploaded photo (or the identicon), the name, and the same
 * rating figure as their public profile (the same query and the same rule: no reviews, "new member").
 */
function Identity({ user, compact = false }: { user: SessionUser; compact?: boolean }) {
  const name = displayNameOf(user);
  const profile = usePublicProfile(user.id);
  return (
    <Group gap="sm" wrap="nowrap">
      <UserAvatar
        name={name}
        avatarUrl={user.avatarUrl}
        avatarSeed={user.avatarSeed}
        size={compact ? 'md' : 'lg'}
        decorative
        data-testid="private-area-avatar"
      />
      <Box miw={0}>
        <UnstyledButton component={Link} to={`/user/${user.id}`} miw={0} display="block">
          <Text fw={700} truncate="end" data-testid="private-area-name">
            {name}
          </Text>
        </UnstyledButton>
        {profile.data && (
          <MemberRating
            rating={{ average: profile.data.rating, reviewCount: profile.data.reviewCount }}
            size="sm"
            testId="private-area-rating"
          />
        )}
      </Box>
    </Group>
  );
}

function SectionLinks({
  user,
  active,
  strip = false,
}: {
  user: SessionUser;
  active: string;
  strip?: boolean;
}) {
  const { t } = useTranslation();
  const links = privateSections.map((section) => {
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
        className={strip ? classes.stripLink : undefined}
        ref={strip && isActive ? scrollIntoViewOnce : undefined}
      />
    );
  });
  return (
    <Box component="nav" aria-label={t('privateArea.navigation')}>
      {strip ? (
        <ScrollArea type="never" offsetScrollbars={false}>
          <Group gap={4} wrap="nowrap" data-testid="private-area-strip">
            {links}
          </Group>
        </ScrollArea>
      ) : (
        <Stack gap={4}>{links}</Stack>
      )}
    </Box>
  );
}

/** Keeps the current section in view in the narrow strip. */
function scrollIntoViewOnce(node: HTMLElement | null) {
  node?.scrollIntoView({ block: 'nearest', inline: 'center' });
}
