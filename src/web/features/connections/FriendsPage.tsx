import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconInbox, IconSearch, IconUsers } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { FRIENDS_PAGE_SIZE } from '@shared/connections';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useConnectionsLive, useFriends } from './api';
import { FindFriends } from './FindFriends';
import { FriendCard } from './FriendCard';
import { Pager } from '../../components/Pager';
import { RequestsSection } from './RequestsSection';
import { QueryStatus } from '../../components/AsyncSection';
import { PageHeader } from '../../components/PageHeader';

/** Brings a section into view and moves the keyboard focus there. */
function reveal(element: HTMLElement | null) {
  if (!element) return;
  element.scrollIntoView({ behavior: 'smooth', block: 'center' });
  element.focus({ preventScroll: true });
}

/** /profile/:userId/friends: friends by interactions, requests, and find friends. */
export default function FriendsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('connections.pageTitle'));
  const session = useSession();
  const me = session.status === 'signed-in' ? session.user.id : '';
  const [page, setPage] = useState(1);
  const friends = useFriends(page);
  useConnectionsLive();
  const searchInput = useRef<HTMLInputElement>(null);
  const requestsHeading = useRef<HTMLHeadingElement>(null);

  const items = friends.data?.items ?? [];
  return (
    <Stack gap="xl">
      <PageHeader compact title={t('connections.title')} subtitle={t('connections.subtitle')} />
      <section aria-labelledby="my-friends">
        <Title order={2} fz="xl" id="my-friends" mb="sm">
          {t('connections.friends.heading')}
          {friends.data && friends.data.total > 0 && (
            <Text component="span" c="dimmed" fz="md" fw={400} ml="xs">
              {t('connections.friends.count', { count: friends.data.total })}
            </Text>
          )}
        </Title>
        <QueryStatus
          query={friends}
          errorTitle={t('connections.errors.load')}
          retryLabel={t('connections.friends.reload')}
        />
        {friends.isSuccess && friends.data.total === 0 && (
          <Stack align="center" py="lg" gap="xs" ta="center">
            <IconUsers size={48} stroke={1.2} aria-hidden />
            <Title order={3} fz="lg">
              {t('connections.empty.title')}
            </Title>
            <Text c="dimmed">{t('connections.empty.text')}</Text>
            <Group justify="center" gap="sm" mt="xs">
              <Button
                leftSection={<IconSearch size={16} aria-hidden />}
                onClick={() => reveal(searchInput.current)}
              >
                {t('connections.empty.findFriends')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconInbox size={16} aria-hidden />}
                onClick={() => reveal(requestsHeading.current)}
              >
                {t('connections.empty.requests')}
              </Button>
            </Group>
          </Stack>
        )}
        {items.length > 0 && (
          <>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              {items.map((f) => (
                <FriendCard key={f.connectionId} friend={f} me={me} />
              ))}
            </SimpleGrid>
            <Pager
              page={page}
              pageSize={FRIENDS_PAGE_SIZE}
              total={friends.data?.total ?? 0}
              onChange={setPage}
            />
          </>
        )}
      </section>
      <RequestsSection me={me} ref={requestsHeading} />
      <FindFriends me={me} ref={searchInput} />
    </Stack>
  );
}
