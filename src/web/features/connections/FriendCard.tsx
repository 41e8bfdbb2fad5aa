import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import type { Friend } from '@shared/connections';
import { ConnectionActions } from './ConnectionActions';
import { MemberLine } from './MemberLine';

/** One friend: who, since when, how much we interact, and what I can do. */
export function FriendCard({ friend, me }: { friend: Friend; me: string }) {
  const { t, i18n } = useTranslation();
  const { member } = friend;
  const stats = [
    { key: 'interactions', value: friend.interactions },
    { key: 'booksExchanged', value: friend.booksExchanged },
    { key: 'reactions', value: friend.reactions },
  ] as const;
  return (
    <Paper component="article" withBorder p="md" aria-label={member.displayName}>
      <Stack gap="sm">
        <MemberLine
          member={member}
          detail={
            <>
              <Text size="sm" c="dimmed">
                {t('connections.friends.memberSince', {
                  date: formatDate(member.memberSince, i18n.language),
                })}
              </Text>
              <Text size="sm" c="dimmed">
                {t('connections.friends.friendsSince', {
                  date: formatDate(friend.friendsSince, i18n.language),
                })}
              </Text>
            </>
          }
        />
        <SimpleGrid cols={3} spacing="xs" component="dl" m={0}>
          {stats.map((s) => (
            <Paper key={s.key} bg="gray.0" p={6} radius="sm" ta="center">
              <Text component="dt" size="xs" c="gray.7">
                {t(`connections.friends.${s.key}`)}
              </Text>
              <Text component="dd" m={0} fw={700} data-testid={`friend-${s.key}`}>
                {s.value}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
        <Group>
          <ConnectionActions
            me={me}
            member={member}
            state="accepted"
            connectionId={friend.connectionId}
          />
        </Group>
      </Stack>
    </Paper>
  );
}
