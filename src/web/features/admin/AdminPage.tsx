import {
  Anchor,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSession } from '../../lib/session';
import { NotFoundPage } from '../not-found';
import { CasesPanel } from '../deals';
import { kindName } from '../moderation';
import { useAuditLog, usePinned, useQueue, useSuspended, useUnpin } from './api';
import { ActionDialog, type Pending } from './ActionDialog';
import { QueueCard } from './QueueCard';
import { WorksPanel } from './WorksPanel';

/** /admin — the moderation queue, suspended members and the audit log (admins only). */
export default function AdminPage() {
  const { t, i18n } = useTranslation();
  const [tab, setTab] = useState<string | null>('queue');
  const [page, setPage] = useState(1);
  const [logPage, setLogPage] = useState(1);
  // A visitor is not asked about: the page does not exist for them (no request to answer 401).
  const session = useSession();
  const queue = useQueue(page, session.status === 'signed-in');
  const allowed = queue.isSuccess;
  const log = useAuditLog(logPage, allowed && tab === 'log');
  const suspended = useSuspended(allowed && tab === 'suspended');
  const pinned = usePinned(allowed && tab === 'pinned');
  const unpin = useUnpin();
  const [pending, setPending] = useState<Pending | null>(null);
  useDocumentTitle(t('admin.pageTitle'));

  if (session.status === 'signed-out') return <NotFoundPage />;
  if (queue.isPending)
    return (
      <Center py={80}>
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  // Not an admin (404) or not signed in (401): the page does not exist for them.
  if (queue.isError && queue.error instanceof ApiError && [401, 404].includes(queue.error.status))
    return <NotFoundPage />;
  if (queue.isError)
    return (
      <Container py="xl">
        <Text role="alert" c="var(--mantine-color-error)">
          {queue.error.message}
        </Text>
      </Container>
    );

  const data = queue.data;
  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={1}>{t('admin.pageTitle')}</Title>
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="queue">
              {t('admin.tabs.queue')} ({data.total})
            </Tabs.Tab>
            <Tabs.Tab value="suspended">{t('admin.tabs.suspended')}</Tabs.Tab>
            <Tabs.Tab value="pinned">{t('admin.tabs.pinned')}</Tabs.Tab>
            <Tabs.Tab value="log">{t('admin.tabs.log')}</Tabs.Tab>
            <Tabs.Tab value="cases">{t('deals.post.admin.title')}</Tabs.Tab>
            <Tabs.Tab value="works">{t('admin.tabs.works')}</Tabs.Tab>
          </Tabs.List>

          <Tabs.Panel value="queue" pt="md">
            {data.items.length === 0 ? (
              <Text c="dimmed">{t('admin.queue.empty')}</Text>
            ) : (
              <Stack component="ul" gap="md" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {data.items.map((entry) => (
                  <QueueCard
                    key={`${entry.kind}:${entry.itemId}`}
                    entry={entry}
                    onAction={setPending}
                  />
                ))}
              </Stack>
            )}
            {data.total > data.pageSize && (
              <Pagination
                mt="md"
                total={Math.ceil(data.total / data.pageSize)}
                value={page}
                onChange={setPage}
                getControlProps={(c) => ({ 'aria-label': t(`library.pagination.${c}`) })}
                getItemProps={(p) => ({ 'aria-label': t('library.pagination.page', { page: p }) })}
              />
            )}
          </Tabs.Panel>

          <Tabs.Panel value="works" pt="md">
            <WorksPanel />
          </Tabs.Panel>

          <Tabs.Panel value="cases" pt="md">
            <CasesPanel />
          </Tabs.Panel>

          <Tabs.Panel value="suspended" pt="md">
            {suspended.data && suspended.data.items.length === 0 && (
              <Text c="dimmed">{t('admin.suspended.empty')}</Text>
            )}
            <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {suspended.data?.items.map((m) => (
                <Paper component="li" key={m.id} withBorder p="sm">
                  <Group justify="space-between" wrap="wrap">
                    <div>
                      <Text fw={600}>{m.displayName}</Text>
                      <Text size="sm" c="dimmed">
                        {m.email}
                      </Text>
                    </div>
                    <Button
                      size="compact-sm"
                      variant="default"
                      onClick={() =>
                        setPending({
                          action: { action: 'unsuspend', userId: m.id, reason: '' },
                          title: t('admin.dialog.title.unsuspend', { name: m.displayName }),
                        })
                      }
                    >
                      {t('admin.actions.unsuspend')}
                    </Button>
                  </Group>
                </Paper>
              ))}
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="pinned" pt="md">
            <Text size="sm" c="dimmed" mb="sm">
              {t('admin.pinned.hint')}
            </Text>
            {pinned.data && pinned.data.length === 0 && (
              <Text c="dimmed">{t('admin.pinned.empty')}</Text>
            )}
            <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {pinned.data?.map((p) => (
                <Paper component="li" key={p.id} withBorder p="sm" data-testid="pinned-post">
                  <Group justify="space-between" wrap="wrap" align="flex-start">
                    <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
                      <Anchor
                        component={Link}
                        to={`/community/posts/${p.id}`}
                        fw={600}
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {p.title || p.book?.title || p.content.slice(0, 80)}
                      </Anchor>
                      {p.author && (
                        <Text size="sm" c="dimmed">
                          {t('admin.queue.by', { name: p.author.displayName })}
                        </Text>
                      )}
                      <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                        {p.content}
                      </Text>
                    </Stack>
                    <Button
                      size="compact-sm"
                      variant="default"
                      loading={unpin.isPending && unpin.variables === p.id}
                      onClick={() =>
                        unpin.mutate(p.id, {
                          onSuccess: () =>
                            notifications.show({
                              color: 'green',
                              message: t('admin.pinned.done'),
                              closeButtonProps: { 'aria-label': t('common.close') },
                            }),
                        })
                      }
                    >
                      {t('admin.actions.unpin')}
                    </Button>
                  </Group>
                </Paper>
              ))}
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="log" pt="md">
            {log.data && log.data.items.length === 0 && (
              <Text c="dimmed">{t('admin.log.empty')}</Text>
            )}
            {log.data && log.data.items.length > 0 && (
              <Table.ScrollContainer minWidth={640}>
                <Table striped data-testid="audit-log">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('admin.log.when')}</Table.Th>
                      <Table.Th>{t('admin.log.who')}</Table.Th>
                      <Table.Th>{t('admin.log.what')}</Table.Th>
                      <Table.Th>{t('admin.log.item')}</Table.Th>
                      <Table.Th>{t('admin.log.why')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {log.data.items.map((e) => (
                      <Table.Tr key={e.id}>
                        <Table.Td>
                          <time dateTime={e.createdAt}>
                            {new Date(e.createdAt).toLocaleString(intlLocale(i18n.language))}
                          </time>
                        </Table.Td>
                        <Table.Td>{e.actor ?? t('admin.log.commandLine')}</Table.Td>
                        <Table.Td>{t(`admin.log.actions.${e.action}`)}</Table.Td>
                        <Table.Td>
                          {e.kind ? `${kindName(t, e.kind)} ` : ''}
                          {e.targetName ?? ''}
                          {e.kind === 'work' && e.itemId && (
                            <Anchor component={Link} to={`/books/${e.itemId}`} size="sm">
                              {t('admin.works.openPage')}
                            </Anchor>
                          )}
                        </Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.reason}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {log.data && (logPage > 1 || log.data.hasMore) && (
              <Group mt="sm">
                {logPage > 1 && (
                  <Button variant="default" size="xs" onClick={() => setLogPage(logPage - 1)}>
                    {t('library.pagination.previous')}
                  </Button>
                )}
                {log.data.hasMore && (
                  <Button variant="default" size="xs" onClick={() => setLogPage(logPage + 1)}>
                    {t('admin.log.more')}
                  </Button>
                )}
              </Group>
            )}
          </Tabs.Panel>
        </Tabs>
      </Stack>
      {pending && <ActionDialog pending={pending} onClose={() => setPending(null)} />}
    </Container>
  );
}
