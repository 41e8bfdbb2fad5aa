import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconDots,
  IconFlag,
  IconPencil,
  IconPin,
  IconPinnedOff,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ReportDialog, useIsAdmin } from '../moderation';
import { useDeletePost, usePinPost } from './api';
import type { Post } from './types';

/**
 * A post's "…" menu: its author edits and deletes it (after confirmation); anyone else reports it
 * (visitors: illegal content, with their name and e-mail); admins also pin and unpin it.
 */
export function PostMenu({
  post,
  own,
  onEdit,
  onDeleted,
}: {
  post: Post;
  own: boolean;
  onEdit: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [reporting, setReporting] = useState(false);
  const remove = useDeletePost();
  const pin = usePinPost();
  const admin = useIsAdmin();
  const togglePin = () =>
    pin.mutate(
      { id: post.id, pin: !post.isPinned },
      {
        onSuccess: (p) =>
          notifications.show({
            color: 'green',
            message: t(p.isPinned ? 'community.post.pinnedDone' : 'community.post.unpinnedDone'),
            closeButtonProps: { 'aria-label': t('common.close') },
          }),
        onError: (err) =>
          notifications.show({
            color: 'red',
            message: err.message,
            closeButtonProps: { 'aria-label': t('common.close') },
          }),
      },
    );
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="dark" aria-label={t('community.post.actions')}>
            <IconDots size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {own && (
            <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
              {t('community.post.edit')}
            </Menu.Item>
          )}
          {own && (
            <Menu.Item
              color="red.9"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => {
                remove.reset();
                setConfirming(true);
              }}
            >
              {t('community.post.delete')}
            </Menu.Item>
          )}
          {!own && (
            <Menu.Item
              leftSection={<IconFlag size={16} aria-hidden />}
              onClick={() => setReporting(true)}
            >
              {t('moderation.report.action')}
            </Menu.Item>
          )}
          {admin && post.status === 'published' && (
            <Menu.Item
              leftSection={
                post.isPinned ? (
                  <IconPinnedOff size={16} aria-hidden />
                ) : (
                  <IconPin size={16} aria-hidden />
                )
              }
              onClick={togglePin}
            >
              {t(post.isPinned ? 'community.post.unpin' : 'community.post.pin')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {reporting && (
        <ReportDialog opened onClose={() => setReporting(false)} kind="post" id={post.id} />
      )}
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('community.post.deleteTitle')}
        confirmLabel={t('community.post.deleteConfirm')}
        loading={remove.isPending}
        error={remove.isError ? remove.error.message : null}
        onConfirm={() =>
          remove.mutate(post.id, {
            onSuccess: () => {
              setConfirming(false);
              onDeleted?.();
            },
          })
        }
      >
        {t('community.post.deleteText')}
      </ConfirmDialog>
    </>
  );
}
