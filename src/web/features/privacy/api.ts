import { api, ApiError, reportUnauthorized } from '../../lib/api';
import i18n, { currentLanguage } from '../../lib/i18n';

export interface DeletionMethod {
  method: 'password' | 'freshSignIn';
  /** The current session was created in the last 10 minutes. */
  fresh: boolean;
}

export const fetchDeletionMethod = () => api<DeletionMethod>('/api/me/delete');

export const deleteAccount = (password: string | undefined) =>
  api<{ deleted: true }>('/api/me/delete', {
    method: 'POST',
    body: password === undefined ? {} : { password },
  });

/** The file name the server gave (content-disposition), else a sensible one. */
function fileNameOf(res: Response): string {
  const header = res.headers.get('content-disposition') ?? '';
  const match = /filename="([^"]+)"/.exec(header);
  return match?.[1] ?? `scaffale-${new Date().toISOString().slice(0, 10)}.json`;
}

/**
 * POST /api/me/export and hands the archive to the browser as a download (an object URL on a
 * temporary link). A POST, so that no image or link on any page can export the member's data or
 * spend their hourly allowance; a plain link would not give our error format either.
 */
export async function downloadMyData(): Promise<void> {
  const path = '/api/me/export';
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'accept-language': currentLanguage() },
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network', i18n.t('errors.network'));
  }
  if (!res.ok) {
    if (res.status === 401) reportUnauthorized(path);
    const data = (await res.json().catch(() => undefined)) as
      { error?: { code?: string; message?: string } } | undefined;
    throw new ApiError(
      res.status,
      data?.error?.code ?? 'error',
      data?.error?.message ?? i18n.t('privacy.errors.downloadFailed'),
    );
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(res);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
