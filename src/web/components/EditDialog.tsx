import { Alert, Center, Loader, Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { MOBILE_MAX_WIDTH } from '@shared/constants';

/**
 * The dialog that edits an item over its list: full screen on a phone, a spinner while the item
 * is read fresh from the server, the load error, then the form (`children`, once loaded).
 */
export function EditDialog({
  opened,
  onClose,
  title,
  pending,
  error,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  pending: boolean;
  /** The load error's text, or null. */
  error: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_MAX_WIDTH}px)`, false);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="xl"
      fullScreen={isMobile}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {pending && (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      )}
      {error !== null && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {children}
    </Modal>
  );
}
