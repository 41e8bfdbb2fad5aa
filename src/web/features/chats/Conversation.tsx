import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ApiError } from '../../lib/api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { flattenPages, invalidateRoomLists, markRoomRead, useMessagePages, useRoom } from './api';
import { Composer } from './Composer';
import { othersIn, withDeletedMember } from './format';
import { BlockedNotice, useBlockState } from '../blocks';
import { ConversationHeader } from './ConversationHeader';
import { MessageList } from './MessageList';
import { OfferControls } from './OfferControls';
import { flushOutbox } from './sender';
import { useTyping, type Presence } from './live';
import classes from './ChatsPage.module.css';

/** One open room: its header, its messages and the composer. */
export function Conversation({
  roomId,
  meId,
  presence,
  onBack,
  onLeft,
}: {
  roomId: string;
  meId: string;
  presence: Record<string, Presence>;
  onBack?: () => void;
  onLeft: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const room = useRoom(roomId);
  const pages = useMessagePages(roomId);
  const messages = useMemo(() => flattenPages(pages.data), [pages.data]);
  const typing = useTyping(roomId, meId);
  const joined = room.isSuccess;
  const other = room.data && !room.data.isGroup ? othersIn(room.data, meId)[0] : undefined;
  // Once I blocked them, nothing here can work either way: the notice with Unblock instead.
  const blocked = useBlockState(other?.id).data?.blocked === true;

  // Opening a room reads it (only once we know the member is in it).
  useEffect(() => {
    if (!joined) return;
    markRoomRead(roomId)
      .then(() => invalidateRoomLists(client))
      .catch(() => undefined);
  }, [joined, roomId, client]);

  // Opening a room sends what waits in the tab's outbox (typed offline, before a reload).
  useEffect(() => {
    void flushOutbox(client, meId);
  }, [client, meId, roomId]);

  // A typist whose message arrived has stopped typing.
  const last = messages.at(-1);
  const { stopped } = typing;
  useEffect(() => {
    if (last) stopped(last.senderId);
  }, [last, stopped]);

  if (room.isPending)
    return (
      <Center className={classes.pane}>
        <Loader role="status" aria-label={t('chats.loadingChat')} />
      </Center>
    );
  if (room.isError) {
    const status = room.error instanceof ApiError ? room.error.status : 0;
    const missing = status === 403 || status === 404;
    return (
      <Stack className={classes.pane} p="md">
        <ErrorAlert title={missing ? t('chats.errors.notFound') : t('chats.errors.loadChat')}>
          <Stack gap="xs" align="flex-start">
            {!missing && <Text size="sm">{room.error.message}</Text>}
            {missing ? (
              onBack && (
                <Button size="xs" variant="default" onClick={onBack}>
                  {t('chats.back')}
                </Button>
              )
            ) : (
              <Button size="xs" variant="default" onClick={() => void room.refetch()}>
                {t('common.tryAgain')}
              </Button>
            )}
          </Stack>
        </ErrorAlert>
      </Stack>
    );
  }

  return (
    <section className={classes.pane} aria-labelledby="conversation-title">
      <ConversationHeader
        room={room.data}
        meId={meId}
        presence={presence}
        typists={typing.names}
        onBack={onBack}
        onLeft={onLeft}
      />
      <MessageList room={room.data} meId={meId} pages={pages} messages={messages} />
      <div className={classes.footer}>
        {blocked && other ? (
          <BlockedNotice userId={other.id} name={other.displayName} inChat />
        ) : (
          <>
            <OfferControls room={room.data} meId={meId} messages={messages} />
            {/* A deleted member reads nothing more: the server refuses, no composer is shown. */}
            {!withDeletedMember(room.data, meId) && (
              <Composer roomId={roomId} meId={meId} onTyping={typing.typing} />
            )}
          </>
        )}
      </div>
    </section>
  );
}
