import { Button, Center, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { forwardRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import type { ConnectionRequest } from '@shared/connections';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConnectionRequests } from './api';
import { ConnectionActions } from './ConnectionActions';
import { MemberLine } from './MemberLine';
import { Pager } from '../../components/Pager';

/** The two lists, received and sent, side by side. */
const DIRECTIONS = [
  {
    direction: 'incoming',
    titleKey: 'connections.requests.incoming',
    labelKey: 'connections.requests.incomingLabel',
    emptyKey: 'connections.requests.noIncoming',
  },
  {
    direction: 'outgoing',
    titleKey: 'connections.requests.outgoing',
    labelKey: 'connections.requests.outgoingLabel',
    emptyKey: 'connections.requests.noOutgoing',
  },
] as const;

function RequestList({
  me,
  label,
  empty,
  items,
  direction,
}: {
  me: string;
  label: string;
  empty: string;
  items: ConnectionRequest[];
  direction: 'incoming' | 'outgoing';
}) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return <Text c="dimmed">{empty}</Text>;
  return (
    <Stack component="ul" aria-label={label} gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((r) => (
        <Paper
          component="li"
          key={r.connectionId}
          withBorder
          p="sm"
          aria-label={r.member.displayName}
        >
          <Stack gap="xs">
            <MemberLine
              member={r.member}
              detail={
                <Text size="xs" c="gray.7">
                  {t('connections.requests.sentAt', { date: formatDate(r.sentAt, i18n.language) })}
                </Text>
              }
            />
            <ConnectionActions
              me={me}
              member={r.member}
              state={direction === 'incoming' ? 'pending-incoming' : 'pending-outgoing'}
              connectionId={r.connectionId}
              size="xs"
            />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** Requests received (accept, decline) and sent (cancel). */
export const RequestsSection = forwardRef<HTMLHeadingElement, { me: string }>(
  function RequestsSection({ me }, headingRef) {
    const { t } = useTranslation();
    const [incomingPage, setIncomingPage] = useState(1);
    const [outgoingPage, setOutgoingPage] = useState(1);
    const requests = useConnectionRequests(incomingPage, outgoingPage);
    return (
      <section aria-labelledby="friend-requests">
        <Title order={2} fz="xl" id="friend-requests" ref={headingRef} tabIndex={-1} mb="sm">
          {t('connections.requests.heading')}
        </Title>
        {requests.isPending && (
          <Center py="md">
            <Loader size="sm" role="status" aria-label={t('common.loading')} />
          </Center>
        )}
        {requests.isError && (
          <ErrorAlert title={t('connections.errors.loadRequests')}>
            <Button mt="xs" size="xs" variant="default" onClick={() => requests.refetch()}>
              {t('connections.friends.reload')}
            </Button>
          </ErrorAlert>
        )}
        {requests.data && (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            {DIRECTIONS.map(({ direction, titleKey, labelKey, emptyKey }) => (
              <div key={direction}>
                <Title order={3} fz="md" mb="xs">
                  {t(titleKey)} ({requests.data[direction].total})
                </Title>
                <RequestList
                  me={me}
                  direction={direction}
                  label={t(labelKey)}
                  empty={t(emptyKey)}
                  items={requests.data[direction].items}
                />
                <Pager
                  {...requests.data[direction]}
                  onChange={direction === 'incoming' ? setIncomingPage : setOutgoingPage}
                />
              </div>
            ))}
          </SimpleGrid>
        )}
      </section>
    );
  },
);
