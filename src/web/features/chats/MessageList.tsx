import { Box, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { MessagePages } from './api';
import { MessageItem } from './MessageItem';
import { removePending, usePendingMessages, type PendingMessage } from './pending';
import type { Message, Room } from './types';
import classes from './ChatsPage.module.css';

/** Older pages load within this distance of the top. */
const LOAD_OLDER_PX = 80;
/** Within this distance of the bottom the list follows new messages. */
const FOLLOW_PX = 80;

/**
 * The conversation, oldest first. Scrolling up loads older pages without moving what is on
 * screen; new messages scroll into view when the reader is at the bottom or wrote them.
 */
export function MessageList({
  room,
  meId,
  pages,
  messages,
}: {
  room: Room;
  meId: string;
  pages: UseInfiniteQueryResult<MessagePages>;
  messages: Message[];
}) {
  const { t } = useTranslation();
  const logRef = useRef<HTMLDivElement>(null);
  const fromBottom = useRef<number | null>(null);
  const following = useRef(true);
  const lastId = useRef<string | undefined>(undefined);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const contentRef = useRef<HTMLDivElement>(null);
  const sending = usePendingMessages(room.id, meId);
  const sendingCount = useRef(0);

  const loadOlder = useCallback(() => {
    const el = logRef.current;
    if (!el || !hasNextPage || isFetchingNextPage) return;
    fromBottom.current = el.scrollHeight - el.scrollTop;
    void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onScroll = () => {
    const el = logRef.current;
    if (!el) return;
    following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX;
    if (el.scrollTop < LOAD_OLDER_PX) loadOlder();
  };

  useLayoutEffect(() => {
    const el = logRef.current;
    if (!el) return;
    const newest = messages.at(-1);
    if (fromBottom.current !== null && !isFetchingNextPage) {
      el.scrollTop = el.scrollHeight - fromBottom.current;
      fromBottom.current = null;
    } else if (
      newest &&
      newest.id !== lastId.current &&
      (following.current || newest.senderId === meId)
    ) {
      el.scrollTop = el.scrollHeight;
    }
    lastId.current = newest?.id;
  }, [messages, isFetchingNextPage, meId]);

  // A message being sent is the reader's own: it scrolls into view.
  useLayoutEffect(() => {
    const el = logRef.current;
    if (el && sending.length > sendingCount.current) el.scrollTop = el.scrollHeight;
    sendingCount.current = sending.length;
  }, [sending.length]);

  // What grows after the scroll (a book's cover, a deal's card, the bars under the list, a font)
  // would leave the newest message below the fold: while the reader follows, it stays in view.
  const shown = !pages.isPending && !pages.isError;
  useLayoutEffect(() => {
    const el = logRef.current;
    const content = contentRef.current;
    if (!shown || !el || !content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current && fromBottom.current === null) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    observer.observe(content);
    return () => observer.disconnect();
  }, [shown]);

  if (pages.isPending)
    return (
      <Center style={{ flex: 1 }}>
        <Loader size="sm" role="status" aria-label={t('chats.loadingMessages')} />
      </Center>
    );
  if (pages.isError)
    return (
      <Stack p="md" style={{ flex: 1 }}>
        <ErrorAlert title={t('chats.errors.loadMessages')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{pages.error.message}</Text>
            <Button size="xs" variant="default" onClick={() => void pages.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Stack>
        </ErrorAlert>
      </Stack>
    );

  return (
    <div
      ref={logRef}
      className={classes.log}
      role="log"
      aria-label={t('chats.messagesLabel')}
      onScroll={onScroll}
      tabIndex={0}
    >
      <div ref={contentRef} className={classes.logContent}>
        {hasNextPage && (
          <Button
            variant="subtle"
            size="xs"
            style={{ alignSelf: 'center' }}
            loading={isFetchingNextPage}
            onClick={loadOlder}
          >
            {t('chats.olderMessages')}
          </Button>
        )}
        {messages.length === 0 && sending.length === 0 && (
          <Text c="dimmed" ta="center" m="auto">
            {t('chats.noMessagesYet')}
          </Text>
        )}
        {messages.map((message) => (
          <MessageItem key={message.id} message={message} room={room} meId={meId} />
        ))}
        {sending.map((message) => (
          <PendingItem key={message.clientId} message={message} />
        ))}
      </div>
    </div>
  );
}

/** A message of mine the server has not stored yet: being sent, waiting for the connection, or refused. */
function PendingItem({ message }: { message: PendingMessage }) {
  const { t } = useTranslation();
  return (
    <Box
      className={`${classes.bubble} ${classes.mine}`}
      data-testid="chat-message-pending"
      data-state={message.state}
      aria-busy={message.state === 'sending'}
    >
      <Text size="sm" className={classes.text}>
        {message.content}
      </Text>
      {message.state === 'failed' ? (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Text size="xs" c="red.9">
            {t('chats.message.notSent', { reason: message.error ?? '' })}
          </Text>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => removePending(message.clientId)}
          >
            {t('chats.message.discard')}
          </Button>
        </Group>
      ) : (
        <Text size="xs" c="dimmed" ta="right">
          {message.state === 'waiting' ? t('chats.message.waiting') : t('chats.message.pending')}
        </Text>
      )}
    </Box>
  );
}
