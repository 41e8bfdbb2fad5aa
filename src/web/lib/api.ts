import i18n, { currentLanguage } from './i18n';

/** An API failure in the server's error format, with its message already in the user's language. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type UnauthorizedListener = (path: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called with the request path whenever the API answers 401 (the session uses it to notice expiry). */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** For requests made outside api() (XMLHttpRequest uploads) that answered 401. */
export function reportUnauthorized(path: string): void {
  for (const listener of unauthorizedListeners) listener(path);
}

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { 'accept-language': currentLanguage(), ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method: opts.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network', i18n.t('errors.network'));
  }
  if (res.status === 204) return undefined as T;
  const data = await res.json().catch(() => undefined);
  if (res.status === 401) reportUnauthorized(path);
  if (!res.ok) {
    const e = (
      data as { error?: { code?: string; message?: string; fields?: Record<string, string> } }
    )?.error;
    throw new ApiError(
      res.status,
      e?.code ?? 'error',
      e?.message ?? i18n.t('errors.general'),
      e?.fields,
    );
  }
  return data as T;
}

/**
 * POSTs one file as multipart field `file` with real upload progress (fetch reports none), with
 * the same language header, cookies and error format as api(). A failure rejects with an ApiError
 * whose message is the server's (already translated) or '' when the server gave none; a 401 is
 * reported to the session like any other.
 */
export function uploadFile<T>(
  path: string,
  file: File,
  opts: { onProgress?: (percent: number) => void; signal?: AbortSignal } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept-language', currentLanguage());
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let data: unknown;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && data && typeof data === 'object') {
        opts.onProgress?.(100);
        return resolve(data as T);
      }
      if (xhr.status === 401) reportUnauthorized(path);
      const e = (
        data as { error?: { code?: string; message?: string; fields?: Record<string, string> } }
      )?.error;
      reject(new ApiError(xhr.status, e?.code ?? 'error', e?.message ?? '', e?.fields));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', ''));
    xhr.onabort = () => reject(new ApiError(0, 'aborted', ''));
    opts.signal?.addEventListener('abort', () => xhr.abort());
    const body = new FormData();
    body.append('file', file);
    xhr.send(body);
  });
}
