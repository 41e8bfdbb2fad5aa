import { Badge, VisuallyHidden, type BadgeProps } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import { useRealtimeEvent, useRealtimeReconnect } from '../../lib/realtime';
import { chatKeys, useUnreadTotal } from './api';
import { useChatOutbox } from './sender';

/**
 * The member's unread total, refreshed by chat events and after a reconnect; the shell's chats
 * entry also keeps the tab's outbox going (messages typed offline go when the connection is back).
 */
export function useLiveUnreadTotal(): number {
  useChatOutbox();
  const session = useSession();
  const client = useQueryClient();
  const unread = useUnreadTotal(session.status === 'signed-in');
  const refresh = useCallback(
    () => void client.invalidateQueries({ queryKey: chatKeys.unread }),
    [client],
  );
  useRealtimeEvent('chat.message', refresh);
  useRealtimeEvent('chat.read', refresh);
  useRealtimeEvent('chat.room', refresh);
  useRealtimeReconnect(refresh);
  return unread.data?.total ?? 0;
}

/**
 * The count of unread messages beside a chats entry; nothing when all are read. A screen reader
 * hears what the number means rather than the bare number.
 */
export function ChatsUnreadBadge(props: Omit<BadgeProps, 'children'>) {
  const { t } = useTranslation();
  const total = useLiveUnreadTotal();
  if (total <= 0) return null;
  return (
    <>
      <Badge
        color="red.9"
        size="sm"
        circle={total < 10}
        aria-hidden
        data-testid="chats-unread"
        {...props}
      >
        {total > 99 ? '99+' : total}
      </Badge>
      <VisuallyHidden>{t('privateArea.unreadMessages', { count: total })}</VisuallyHidden>
    </>
  );
}
