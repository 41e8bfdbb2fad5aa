import { Alert, Button, Group, Menu, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBan, IconLockOpen } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { notify } from '../../lib/notify';
import { useBlockState, useSetBlocked } from './api';

/** The confirmation of a block: what blocking does, and that the member is not told. */
export function BlockDialog({
  opened,
  onClose,
  userId,
  name,
}: {
  opened: boolean;
  onClose: () => void;
  userId: string;
  name: string;
}) {
  const { t } = useTranslation();
  const setBlocked = useSetBlocked();
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title={t('blocks.confirmTitle', { name })}
      confirmLabel={t('blocks.confirm')}
      color="red.9"
      loading={setBlocked.isPending}
      error={setBlocked.isError ? setBlocked.error.message : null}
      onConfirm={() =>
        setBlocked.mutate(
          { userId, block: true },
          {
            onSuccess: () => {
              onClose();
              notify('green', t('blocks.blockedDone', { name }));
            },
          },
        )
      }
    >
      {t('blocks.confirmBody', { name })}
    </ConfirmDialog>
  );
}

/** Unblocks at once (nothing to confirm: it only gives back what the block took away). */
export function useUnblock(userId: string, name: string) {
  const { t } = useTranslation();
  const setBlocked = useSetBlocked();
  return {
    pending: setBlocked.isPending,
    run: () =>
      setBlocked.mutate(
        { userId, block: false },
        {
          onSuccess: () => notify('green', t('blocks.unblockedDone', { name })),
          onError: (err) => notify('red', err.message || t('blocks.actionFailed')),
        },
      ),
  };
}

/**
 * "You blocked X", with Unblock: on the profile (what the block hides) or in the conversation
 * (`inChat`: no messages or offers either way), where it takes the place of the composer.
 */
export function BlockedNotice({
  userId,
  name,
  inChat = false,
}: {
  userId: string;
  name: string;
  inChat?: boolean;
}) {
  const { t } = useTranslation();
  const unblock = useUnblock(userId, name);
  return (
    <Alert color="gray" icon={<IconBan aria-hidden />} data-testid="blocked-notice">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {t(inChat ? 'blocks.blockedInChat' : 'blocks.blockedNotice', { name })}
        </Text>
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconLockOpen size={14} aria-hidden />}
          loading={unblock.pending}
          onClick={unblock.run}
        >
          {t('blocks.unblock')}
        </Button>
      </Group>
    </Alert>
  );
}

/**
 * On a public profile, beside the report action: "Block", or, once blocked, a notice with
 * "Unblock". Only for a signed-in member looking at someone else's profile.
 */
export function BlockControl({ userId, name }: { userId: string; name: string }) {
  const { t } = useTranslation();
  const state = useBlockState(userId);
  const [opened, dialog] = useDisclosure(false);
  if (!state.data) return null;
  if (state.data.blocked) return <BlockedNotice userId={userId} name={name} />;
  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        color="red.9"
        leftSection={<IconBan size={14} aria-hidden />}
        onClick={dialog.open}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('blocks.block')}
      </Button>
      {opened && <BlockDialog opened={opened} onClose={dialog.close} userId={userId} name={name} />}
    </>
  );
}

/**
 * For a conversation's "…" menu: the item (Block or Unblock) and the dialog it opens. The
 * dialog is rendered by the caller outside the menu (`dialog`).
 */
export function useBlockMenu(userId: string | undefined, name: string) {
  const { t } = useTranslation();
  const state = useBlockState(userId);
  const [opened, dialog] = useDisclosure(false);
  const unblock = useUnblock(userId ?? '', name);
  const blocked = state.data?.blocked === true;
  const item =
    userId && state.data ? (
      <Menu.Item
        color={blocked ? undefined : 'red.9'}
        leftSection={
          blocked ? <IconLockOpen size={16} aria-hidden /> : <IconBan size={16} aria-hidden />
        }
        onClick={blocked ? unblock.run : dialog.open}
      >
        {blocked ? t('blocks.unblock') : t('blocks.block')}
      </Menu.Item>
    ) : null;
  const element =
    userId && opened ? (
      <BlockDialog opened={opened} onClose={dialog.close} userId={userId} name={name} />
    ) : null;
  return { item, dialog: element, blocked };
}
