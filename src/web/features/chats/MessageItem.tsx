import { Box, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CHAT_MESSAGE_MAX } from './limits';
import { useDeleteMessage, useEditMessage } from './api';
import { ListingMessage } from './ListingMessage';
import { OfferMessage } from './OfferMessage';
import { TradeOfferMessage } from './TradeOfferMessage';
import { DealStepMessage } from '../deals';
import { ReportMenu, ReviewTradeButton } from '../moderation';
import type { Message, Room } from './types';
import { memberName } from './format';
import classes from './ChatsPage.module.css';
import { OwnerMenu } from '../../components/OwnerMenu';
import { noticeText } from './notices';

function useTimeLabel(iso: string) {
  const { i18n } = useTranslation();
  const at = new Date(iso);
  const today = at.toDateString() === new Date().toDateString();
  return new Intl.DateTimeFormat(intlLocale(i18n.language), {
    ...(today ? {} : { dateStyle: 'short' as const }),
    timeStyle: 'short',
  }).format(at);
}

/** One message: text, a listing card, an offer or a room notice; the sender may edit or delete. */
export function MessageItem({
  message,
  room,
  meId,
}: {
  message: Message;
  room: Room;
  meId: string;
}) {
  const { t, i18n } = useTranslation();
  const time = useTimeLabel(message.createdAt);
  const [editing, setEditing] = useState(false);
  const mine = message.senderId === meId;

  if (message.type === 'deal')
    return (
      <DealStepMessage
        code={message.content}
        trade={message.deal?.kind === 'trade'}
        actor={message.sender ? memberName(message.sender, t) : t('deals.someone')}
        className={classes.system}
      />
    );

  if (message.type === 'system')
    return (
      <Text size="xs" c="dimmed" className={classes.system} data-testid="chat-message">
        {noticeText(message, t, i18n.language)}
      </Text>
    );

  const showSender = room.isGroup && !mine && message.sender;
  const canChange = mine && !message.deleted && message.type === 'text';
  return (
    <Box
      className={`${classes.bubble} ${mine ? classes.mine : classes.theirs}`}
      data-testid="chat-message"
      data-message-id={message.id}
    >
      {showSender && (
        <Text size="xs" fw={700} c={message.sender!.deleted ? 'dimmed' : 'brown.8'}>
          {memberName(message.sender!, t)}
        </Text>
      )}
      {message.deleted ? (
        <Text size="sm" fs="italic" c="dimmed">
          {t('chats.message.deleted')}
        </Text>
      ) : editing ? (
        <EditForm message={message} onDone={() => setEditing(false)} />
      ) : (
        <>
          {message.type === 'listing' && message.listing && (
            <ListingMessage listing={message.listing} />
          )}
          {message.type === 'offer' && message.offer?.kind === 'trade' && (
            <TradeOfferMessage
              offer={message.offer}
              wanted={message.listing}
              roomId={message.roomId}
              meId={meId}
              proposerName={message.sender ? memberName(message.sender, t) : t('deals.someone')}
            />
          )}
          {message.type === 'offer' && message.offer && message.offer.kind !== 'trade' && (
            <OfferMessage
              offer={message.offer}
              roomId={message.roomId}
              meId={meId}
              book={message.listing?.title}
            />
          )}
          {message.offer?.status === 'completed' && message.offer.listingId && (
            <ReviewTradeButton listingId={message.offer.listingId} />
          )}
          {message.content && message.type !== 'offer' && (
            <Text size="sm" className={classes.text}>
              {message.content}
            </Text>
          )}
        </>
      )}
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <Text size="xs" c="dimmed">
          <time dateTime={message.createdAt}>{time}</time>
          {message.editedAt && !message.deleted && ` · ${t('chats.message.edited')}`}
        </Text>
        {canChange && !editing && <MessageMenu message={message} onEdit={() => setEditing(true)} />}
        {!mine && !message.deleted && <ReportMenu kind="message" id={message.id} />}
      </Group>
    </Box>
  );
}

function MessageMenu({ message, onEdit }: { message: Message; onEdit: () => void }) {
  const { t } = useTranslation();
  const [confirming, confirm] = useDisclosure(false);
  const remove = useDeleteMessage(message.roomId);
  return (
    <>
      <OwnerMenu
        label={t('chats.message.options')}
        editLabel={t('chats.message.edit')}
        deleteLabel={t('chats.message.delete')}
        onEdit={onEdit}
        onDelete={confirm.open}
        iconSize={14}
        color="gray"
        initialFocusPlaceholder={false}
      />
      <ConfirmDialog
        opened={confirming}
        onClose={confirm.close}
        title={t('chats.message.deleteTitle')}
        confirmLabel={t('chats.message.delete')}
        color="red.9"
        loading={remove.isPending}
        error={remove.isError ? remove.error.message : null}
        onConfirm={() => remove.mutate(message, { onSuccess: confirm.close })}
      />
    </>
  );
}

function EditForm({ message, onDone }: { message: Message; onDone: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(message.content);
  const edit = useEditMessage(message.roomId);
  const content = text.trim();
  const valid = content.length > 0 && content.length <= CHAT_MESSAGE_MAX;
  const save = () => {
    if (!valid || edit.isPending) return;
    if (content === message.content) return onDone();
    edit.mutate({ id: message.id, content }, { onSuccess: onDone });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') onDone();
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      save();
    }
  };
  return (
    <Stack gap={4} miw={220}>
      <Textarea
        aria-label={t('chats.message.editLabel')}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        autosize
        minRows={1}
        maxRows={6}
        data-autofocus
        autoFocus
        error={edit.isError ? edit.error.message : undefined}
      />
      <Group gap="xs" justify="flex-end">
        <Button size="compact-xs" variant="default" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button size="compact-xs" onClick={save} loading={edit.isPending} disabled={!valid}>
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}
