import { Alert, Box, Button, FileInput, Group, Image, Progress, Stack, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COVER_MAX_BYTES } from '@shared/marketplaceConstants';
import { uploadCover, type UploadError } from '../listings/api';

/**
 * The post's picture: uploaded at once through the listings' cover pipeline (/api/uploads/cover,
 * the member's own folder, which is the only kind of URL the server accepts), with a preview and
 * a remove button. `value` is the stored URL or ''.
 */
export function PostImageField({
  value,
  onChange,
  onBusyChange,
  error: serverError,
}: {
  value: string;
  onChange: (url: string) => void;
  onBusyChange?: (busy: boolean) => void;
  error?: string;
}) {
  const { t } = useTranslation();
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
    if (!chosen.type.startsWith('image/')) return setError(t('sell.upload.notImage'));
    if (chosen.size > COVER_MAX_BYTES) return setError(t('sell.upload.tooLarge'));
    const controller = new AbortController();
    abort.current = controller;
    onBusyChange?.(true);
    setProgress(0);
    try {
      const { url } = await uploadCover(chosen, setProgress, controller.signal);
      if (!controller.signal.aborted) {
        onChange(url);
        setProgress(null);
      }
    } catch (err) {
      if (controller.signal.aborted) return;
      setFile(null);
      setProgress(null);
      const e = err as UploadError;
      setError(e.translated ? e.message : t(e.message || 'community.form.imageFailed'));
    } finally {
      if (!controller.signal.aborted) onBusyChange?.(false);
    }
  };

  const remove = () => {
    abort.current?.abort();
    setFile(null);
    setProgress(null);
    setError(null);
    onChange('');
  };

  return (
    <Stack gap="xs">
      <FileInput
        label={t('community.form.image')}
        description={t('community.form.imageHint')}
        accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
        leftSection={<IconPhotoUp size={16} aria-hidden />}
        value={file}
        onChange={(f) => void pick(f)}
        error={serverError}
      />
      {progress !== null && (
        <Progress value={progress} aria-label={t('sell.upload.progress')} animated size="sm" />
      )}
      {progress !== null && (
        <Text size="xs" c="dimmed">
          {t('sell.upload.uploading', { percent: progress })}
        </Text>
      )}
      {value && (
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Box maw={240} style={{ minWidth: 0 }}>
            <Image
              src={value}
              alt={t('community.form.imagePreview')}
              radius="sm"
              mah={180}
              fit="contain"
              data-testid="post-image-preview"
            />
          </Box>
          <Button variant="subtle" size="compact-sm" color="red" onClick={remove}>
            {t('community.form.imageRemove')}
          </Button>
        </Group>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
