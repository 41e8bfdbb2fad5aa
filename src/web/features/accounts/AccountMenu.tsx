import {
  Button,
  Divider,
  Group,
  Indicator,
  Menu,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import {
  IconChevronDown,
  IconEye,
  IconLayoutDashboard,
  IconLogout,
  IconMessages,
  IconShieldCheck,
  IconUser,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { displayNameOf, useIsAdmin, useSession } from '../../lib/session';
import { dashboardPath } from './safeRedirect';
import { UserAvatar } from '../../components/UserAvatar';
import { notify } from '../../lib/notify';
import { ChatsUnreadBadge, useLiveUnreadTotal } from '../chats';

/**
 * The signed-in corner of the top bar: the welcome line and the avatar menu with the e-mail, the
 * dashboard, the public profile, the chats, the moderation page for admins and logout; `stacked`
 * lays the same out in the mobile drawer.
 */
export default function AccountMenu({
  stacked = false,
  onNavigate,
}: {
  stacked?: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const unread = useLiveUnreadTotal();
  const admin = useIsAdmin();
  if (session.status !== 'signed-in') return null;
  const { user } = session;
  const name = displayNameOf(user);
  // The menu's links, the same on a desktop (menu items) and in the mobile drawer (buttons).
  const links: Array<{ to: string; label: string; Icon: typeof IconUser; badge?: ReactNode }> = [
    { to: dashboardPath(user.id), label: t('account.menu.dashboard'), Icon: IconLayoutDashboard },
    { to: `/user/${user.id}`, label: t('account.menu.myProfile'), Icon: IconUser },
    {
      to: `/profile/${user.id}/chats`,
      label: t('privateArea.menu.chats'),
      Icon: IconMessages,
      badge: <ChatsUnreadBadge />,
    },
    { to: `/profile/${user.id}/watching`, label: t('privateArea.menu.watching'), Icon: IconEye },
    ...(admin
      ? [{ to: '/admin', label: t('account.menu.moderation'), Icon: IconShieldCheck }]
      : []),
  ];
  const logout = async () => {
    onNavigate?.();
    try {
      await session.signOut();
    } catch {
      notify('red', t('account.logoutFailed'));
    }
  };
  if (stacked) {
    return (
      <Stack gap="xs" w="100%">
        <Divider />
        <Group gap="sm" wrap="nowrap">
          <UserAvatar
            name={name}
            avatarUrl={user.avatarUrl}
            avatarSeed={user.avatarSeed}
            size="md"
            decorative
          />
          <Stack gap={0} miw={0}>
            <Text fw={600}>{t('account.menu.welcome', { name })}</Text>
            <Text size="sm" c="dimmed" truncate="end">
              {user.email}
            </Text>
          </Stack>
        </Group>
        {links.map(({ to, label, Icon, badge }) => (
          <Button
            key={to}
            component={Link}
            to={to}
            variant="default"
            leftSection={<Icon size={18} aria-hidden />}
            rightSection={badge}
            onClick={onNavigate}
          >
            {label}
          </Button>
        ))}
        <Button
          variant="outline"
          color="red.9"
          leftSection={<IconLogout size={18} aria-hidden />}
          onClick={logout}
        >
          {t('account.menu.logout')}
        </Button>
      </Stack>
    );
  }
  return (
    <Group gap="sm" wrap="nowrap">
      <Text size="sm" fw={500} visibleFrom="md" data-testid="header-welcome">
        {t('account.menu.welcome', { name })}
      </Text>
      <Menu
        position="bottom-end"
        width={260}
        withinPortal
        // Its focus placeholder is a child a role="menu" may not own (axe: aria-required-children).
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          <UnstyledButton
            aria-label={
              unread
                ? `${t('account.menu.accountMenu')} (${t('privateArea.unreadMessages', { count: unread })})`
                : t('account.menu.accountMenu')
            }
          >
            <Group gap={4} wrap="nowrap">
              <Indicator color="red.9" size={12} offset={4} withBorder disabled={!unread}>
                <UserAvatar
                  name={name}
                  avatarUrl={user.avatarUrl}
                  avatarSeed={user.avatarSeed}
                  size="md"
                  decorative
                />
              </Indicator>
              <IconChevronDown size={14} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          {/* A menu may own only items, groups and separators: the label is presentational text. */}
          <Menu.Label
            role="presentation"
            fz="sm"
            c="dark"
            fw={600}
            style={{ overflowWrap: 'anywhere' }}
          >
            {t('account.menu.signedInAs')} {user.email}
          </Menu.Label>
          <Menu.Divider role="separator" />
          {links.map(({ to, label, Icon, badge }) => (
            <Menu.Item
              key={to}
              component={Link}
              to={to}
              leftSection={<Icon size={16} aria-hidden />}
              rightSection={badge}
            >
              {label}
            </Menu.Item>
          ))}
          <Menu.Divider role="separator" />
          <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={logout}>
            {t('account.menu.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
