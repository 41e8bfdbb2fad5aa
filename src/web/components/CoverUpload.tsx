import { Alert, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { BookCover } from './BookCover';
import { IMAGE_ACCEPT, UploadProgress, useImageUpload } from './imageUpload';

/**
 * Cover picker of listings and ads: uploads the chosen image at once (useImageUpload), with
 * progress, and hands back its URL. `previewUrl` shows the current cover when editing a listing
 * whose cover is remote; `title` names the cover in the preview; `error` is the form's own
 * message for the field.
 */
export function CoverUpload({
  value,
  label,
  previewUrl,
  title,
  onChange,
  onBusyChange,
  error: fieldError,
}: {
  value: string;
  /** Defaults to the listing form's "Cover". */
  label?: string;
  previewUrl?: string | null;
  title?: string;
  onChange: (url: string) => void;
  onBusyChange?: (busy: boolean) => void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const { file, progress, error, pick, remove } = useImageUpload({ onChange, onBusyChange });

  const preview = value || previewUrl || null;
  const uploading = progress !== null && progress < 100 && !value;
  const shownError = error ?? fieldError ?? null;

  return (
    <Stack gap="xs">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <BookCover url={preview} title={title || undefined} height={120} />
        <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
          <FileInput
            label={label ?? t('sell.fields.cover')}
            description={t('sell.upload.hint')}
            placeholder={t('sell.upload.placeholder')}
            // Mantine's placeholder grey is 2.1:1 on white; this one passes AA.
            styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
            accept={IMAGE_ACCEPT}
            leftSection={<IconPhotoUp size={16} aria-hidden />}
            value={file}
            onChange={(f) => void pick(f)}
            clearable
            clearButtonProps={{ 'aria-label': t('sell.upload.clear') }}
          />
          <UploadProgress progress={progress} uploading={uploading} />
          {value && !uploading && (
            <Group gap="xs">
              <Text size="xs" c="#1e6b30">
                {t('sell.upload.done')}
              </Text>
              <Button variant="subtle" size="compact-xs" onClick={remove}>
                {t('sell.upload.remove')}
              </Button>
            </Group>
          )}
        </Stack>
      </Group>
      {shownError && (
        <Alert color="red" variant="light" role="alert">
          {shownError}
        </Alert>
      )}
    </Stack>
  );
}
