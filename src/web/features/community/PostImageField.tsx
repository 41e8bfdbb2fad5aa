import { Alert, Box, Button, FileInput, Group, Image, Stack } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { IMAGE_ACCEPT, UploadProgress, useImageUpload } from '../../components/imageUpload';

/**
 * The post's picture: uploaded at once through the listings' cover pipeline (useImageUpload:
 * /api/uploads/cover, the member's own folder, which is the only kind of URL the server accepts),
 * with a preview and a remove button. `value` is the stored URL or ''.
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
  const { file, progress, busy, error, pick, remove } = useImageUpload({
    onChange,
    onBusyChange,
    failedKey: 'community.form.imageFailed',
  });

  return (
    <Stack gap="xs">
      <FileInput
        label={t('community.form.image')}
        description={t('community.form.imageHint')}
        accept={IMAGE_ACCEPT}
        leftSection={<IconPhotoUp size={16} aria-hidden />}
        value={file}
        onChange={(f) => void pick(f)}
        error={serverError}
      />
      {/* The bar goes once the picture is in: the preview takes its place. */}
      <UploadProgress progress={busy ? progress : null} uploading={busy} />
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
