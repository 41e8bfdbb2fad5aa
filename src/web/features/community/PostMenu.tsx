import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useDeletePost } from './api';
import type { Post } from './types';

/** The owner's menu of a post: edit, and delete after confirmation. */
export function PostMenu({
  post,
  onEdit,
  onDeleted,
}: {
  post: Post;
  onEdit: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeletePost();
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="dark" aria-label={t('community.post.actions')}>
            <IconDots size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
            {t('community.post.edit')}
          </Menu.Item>
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
        </Menu.Dropdown>
      </Menu>
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
