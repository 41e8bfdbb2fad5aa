import type { CoverUpload } from '@shared/marketplace';
import { uploadFile, type ApiError } from './api';
import type { LocaleKey } from './translator';

/**
 * Why a cover upload failed: the server's words (`message`, already translated), else a locale
 * key (`key`), else neither: a failure nobody explained, worded by the caller.
 */
export class UploadError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly key: LocaleKey | null = null,
  ) {
    super(message);
  }
}

/** POST /api/uploads/cover with upload progress (0..100). */
export async function uploadCover(
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<CoverUpload> {
  try {
    return await uploadFile<CoverUpload>('/api/uploads/cover', file, { onProgress, signal });
  } catch (err) {
    const e = err as ApiError;
    if (e.status === 401) throw new UploadError(401, '', 'sell.upload.sessionExpired');
    // 503: the file store did not answer; its message says to try again later.
    if ([400, 413, 415, 503].includes(e.status) && e.message)
      throw new UploadError(e.status, e.message);
    throw new UploadError(e.status, '');
  }
}
