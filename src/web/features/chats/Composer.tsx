import { ActionIcon, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';
import { ApiError } from '../../lib/api';
import { useSendMessage } from './api';
import { CHAT_MESSAGE_MAX } from './limits';

/**
 * Writing a message: trimmed, an empty one is not sent, Enter sends and Shift+Enter breaks the
 * line, one send at a time. Without a connection it waits in the conversation as pending (the
 * outbox, sender.ts); refused, the text comes back with the reason shown.
 */
export function Composer({
  roomId,
  meId,
  onTyping,
}: {
  roomId: string;
  meId: string;
  onTyping: () => void;
}) {
  const { t, i18n } = useTranslation();
  const max = CHAT_MESSAGE_MAX.toLocaleString(intlLocale(i18n.language));
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useSendMessage(roomId, meId);
  const inFlight = useRef(false);
  const length = text.trim().length;
  const tooLong = length > CHAT_MESSAGE_MAX;

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const content = text.trim();
    if (!content || tooLong || inFlight.current) return;
    inFlight.current = true;
    setError(null);
    setText('');
    send.mutate(content, {
      onError: (err) => {
        // Whatever was typed meanwhile stays after the restored text.
        setText((now) => (now.trim() ? `${content}\n${now}` : content));
        const detail =
          err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.message : null;
        setError(detail ? `${t('chats.errors.send')}: ${detail}` : t('chats.errors.send'));
      },
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap={4}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Textarea
            aria-label={t('chats.composer.label')}
            placeholder={t('chats.composer.placeholder')}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              if (e.currentTarget.value.trim()) onTyping();
            }}
            onKeyDown={onKeyDown}
            autosize
            minRows={1}
            maxRows={6}
            style={{ flex: 1 }}
            aria-describedby="composer-counter"
            aria-invalid={tooLong || undefined}
          />
          <ActionIcon
            type="submit"
            size={36}
            aria-label={t('chats.composer.send')}
            loading={send.isPending}
            disabled={!length || tooLong}
          >
            <IconSend size={18} aria-hidden />
          </ActionIcon>
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" c="red.9" role="alert">
            {error ?? (tooLong ? t('chats.composer.tooLong', { max }) : '')}
          </Text>
          <Text
            id="composer-counter"
            size="xs"
            c={tooLong ? 'red.9' : 'dimmed'}
            style={{ flexShrink: 0 }}
          >
            {t('chats.composer.counter', { length, max })}
          </Text>
        </Group>
      </Stack>
    </form>
  );
}
