import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconMessagePlus, IconMessages } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSearchParams } from '@web/lib/router';
import { MOBILE_MAX_WIDTH } from '@shared/constants';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Conversation } from './Conversation';
import { NewChatModal } from './NewChatModal';
import { RoomList } from './RoomList';
import { useChatEvents } from './useChatEvents';
import { usePresenceEvents } from './live';
import classes from './ChatsPage.module.css';

/**
 * /profile/:userId/chats — the rooms beside the open conversation; `?room=` names the open one.
 * On a phone the list and the conversation are two views, with a back button between them.
 */
export default function ChatsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const meId = session.user?.id ?? '';
  const [params, setParams] = useSearchParams();
  const roomId = params.get('room');
  const isPhone = useMediaQuery(`(max-width: ${MOBILE_MAX_WIDTH}px)`, false);
  const [newChat, newChatModal] = useDisclosure(false);
  useDocumentTitle(t('chats.pageTitle'));
  useChatEvents(meId, roomId);
  const presence = usePresenceEvents();

  const openRoom = useCallback((id: string) => setParams({ room: id }), [setParams]);
  const closeRoom = useCallback(() => setParams({}), [setParams]);

  const showList = !isPhone || !roomId;
  const showConversation = !isPhone || !!roomId;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap">
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          {t('chats.title')}
        </Title>
        <Button
          leftSection={<IconMessagePlus size={18} aria-hidden />}
          onClick={newChatModal.open}
          size="sm"
        >
          {t('chats.newChat.open')}
        </Button>
      </Group>
      <div className={`${classes.panes} ${isPhone ? classes.single : ''}`}>
        {showList && <RoomList meId={meId} selectedId={roomId} presence={presence} />}
        {showConversation &&
          (roomId ? (
            <Conversation
              key={roomId}
              roomId={roomId}
              meId={meId}
              presence={presence}
              onBack={isPhone ? closeRoom : undefined}
              onLeft={closeRoom}
            />
          ) : (
            <Center className={classes.pane} p="lg">
              <Stack align="center" gap="xs">
                <IconMessages size={40} aria-hidden color="var(--mantine-color-gray-6)" />
                <Text c="dimmed" ta="center">
                  {t('chats.pickRoom')}
                </Text>
              </Stack>
            </Center>
          ))}
      </div>
      <NewChatModal
        opened={newChat}
        onClose={newChatModal.close}
        meId={meId}
        onOpened={(id) => {
          newChatModal.close();
          openRoom(id);
        }}
      />
    </Stack>
  );
}
