import { Progress, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import type { LocaleKey } from '@web/lib/translator';
import { COVER_MAX_BYTES } from '@shared/marketplaceConstants';
import { useSession } from '../lib/session';
import { uploadCover, type UploadError } from '../lib/uploads';

/** The image types the upload pipeline takes (sharp re-encodes them). */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/avif';

/**
 * Picking an image and uploading it at once to POST /api/uploads/cover (which checks the
 * session, re-encodes with sharp and strips metadata), with progress: the part the cover of
 * listings and ads (CoverUpload) and the picture of a post (PostImageField) share. The checks a
 * browser can make come first (signed in, an image, not too large); a new pick cancels the upload
 * before it. `busy` is true while an upload is on its way; `progress` stays at its last value
 * after it; `failedKey` is the message of a failure the server did not explain.
 */
export function useImageUpload({
  onChange,
  onBusyChange,
  failedKey = 'sell.upload.failed',
}: {
  onChange: (url: string) => void;
  onBusyChange?: (busy: boolean) => void;
  failedKey?: LocaleKey;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController>(undefined);
  useEffect(() => () => abort.current?.abort(), []);

  const reset = () => {
    // An upload on its way is cancelled, and the form it held busy is let go.
    if (abort.current) {
      abort.current.abort();
      abort.current = undefined;
      onBusyChange?.(false);
    }
    setFile(null);
    setProgress(null);
    setBusy(false);
    setError(null);
  };

  const pick = async (chosen: File | null) => {
    reset();
    setFile(chosen);
    if (!chosen) return;
    if (session.status !== 'signed-in') return setError(t('sell.upload.authRequiredForUpload'));
    if (!chosen.type.startsWith('image/')) return setError(t('sell.upload.notImage'));
    if (chosen.size > COVER_MAX_BYTES) return setError(t('sell.upload.tooLarge'));
    const controller = new AbortController();
    abort.current = controller;
    onBusyChange?.(true);
    setBusy(true);
    setProgress(0);
    try {
      const { url } = await uploadCover(chosen, setProgress, controller.signal);
      if (!controller.signal.aborted) onChange(url);
    } catch (err) {
      if (controller.signal.aborted) return;
      setFile(null);
      setProgress(null);
      const e = err as UploadError;
      setError(e.message || t(e.key ?? failedKey));
    } finally {
      if (!controller.signal.aborted) {
        abort.current = undefined;
        setBusy(false);
        onBusyChange?.(false);
      }
    }
  };

  /** Drops the picked file, its upload and its message, and the stored URL. */
  const remove = () => {
    reset();
    onChange('');
  };

  return { file, progress, busy, error, pick, remove };
}

/** The upload's bar (while `progress` is set) and its percentage (while `uploading`). */
export function UploadProgress({
  progress,
  uploading,
}: {
  progress: number | null;
  uploading: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}
