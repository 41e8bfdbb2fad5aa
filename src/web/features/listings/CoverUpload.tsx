import { Alert, Button, FileInput, Group, Progress, Stack, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COVER_MAX_BYTES } from '@shared/marketplaceConstants';
import { useSession } from '../../app/session';
import { BookCover } from './BookCover';
import { uploadCover, UploadError } from './api';

/**
 * Cover picker of listings and ads: uploads the chosen image at once to POST /api/uploads/cover
 * (which checks the session, re-encodes with sharp and strips metadata), with progress, and hands
 * back its URL. `previewUrl` shows the current cover when editing a listing whose cover is remote;
 * `title` names the cover in the preview; `error` is the form's own message for the field.
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
  const session = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController>(undefined);
  useEffect(() => () => abort.current?.abort(), []);

  const pick = async (chosen: File | null) => {
    abort.current?.abort();
    setFile(chosen);
    setError(null);
    setProgress(null);
    if (!chosen) return;
    if (session.status !== 'signed-in') return setError(t('sell.upload.authRequiredForUpload'));
    if (!chosen.type.startsWith('image/')) return setError(t('sell.upload.notImage'));
    if (chosen.size > COVER_MAX_BYTES) return setError(t('sell.upload.tooLarge'));
    const controller = new AbortController();
    abort.current = controller;
    onBusyChange?.(true);
    setProgress(0);
    try {
      const { url } = await uploadCover(chosen, setProgress, controller.signal);
      if (!controller.signal.aborted) onChange(url);
    } catch (err) {
      if (controller.signal.aborted) return;
      setFile(null);
      setProgress(null);
      const e = err as UploadError;
      setError(e.translated ? e.message : t(e.message || 'sell.upload.failed'));
    } finally {
      if (!controller.signal.aborted) onBusyChange?.(false);
    }
  };

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
            accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
            leftSection={<IconPhotoUp size={16} aria-hidden />}
            value={file}
            onChange={(f) => void pick(f)}
            clearable
            clearButtonProps={{ 'aria-label': t('sell.upload.clear') }}
          />
          {progress !== null && (
            <Progress
              value={progress}
              aria-label={t('sell.upload.progress')}
              animated={uploading}
              size="sm"
            />
          )}
          {uploading && (
            <Text size="xs" c="dimmed">
              {t('sell.upload.uploading', { percent: progress })}
            </Text>
          )}
          {value && !uploading && (
            <Group gap="xs">
              <Text size="xs" c="#1e6b30">
                {t('sell.upload.done')}
              </Text>
              <Button
                variant="subtle"
                size="compact-xs"
                onClick={() => {
                  setFile(null);
                  setProgress(null);
                  onChange('');
                }}
              >
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
