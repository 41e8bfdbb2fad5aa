import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CompleteListingInput,
  CoverUpload,
  CreateListingInput,
  ListingDetail,
  ListingFormInput,
  ListingStatus,
  MyListings,
} from '@shared/marketplace';
import { api, reportUnauthorized } from '../../lib/api';

/** Query keys of marketplace data; mutations invalidate all of them (they are cheap to refetch). */
export const listingKeys = {
  mine: ['me', 'listings'] as const,
  detail: (id: string) => ['listings', 'detail', id] as const,
  library: ['listings'] as const,
  shelves: ['shelves'] as const,
  users: ['users'] as const,
};

export function useMyListings(enabled = true) {
  return useQuery({
    queryKey: listingKeys.mine,
    queryFn: ({ signal }) => api<MyListings>('/api/me/listings', { signal }),
    enabled,
  });
}

export function useListing(id: string | undefined) {
  return useQuery({
    queryKey: listingKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      api<ListingDetail>(`/api/listings/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
    // A missing listing will not appear on a retry.
    retry: (count, err) => count < 1 && (err as { status?: number }).status !== 404,
  });
}

function useInvalidateMarketplace() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [listingKeys.mine, listingKeys.library, listingKeys.shelves, listingKeys.users].map(
        (queryKey) => client.invalidateQueries({ queryKey }),
      ),
    );
}

export function useCreateListing() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: (body: CreateListingInput) =>
      api<ListingDetail>('/api/listings', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateListing() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ListingFormInput }) =>
      api<ListingDetail>(`/api/listings/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
    onSuccess: invalidate,
  });
}

export function useSetListingStatus() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ListingStatus }) =>
      api<ListingDetail>(`/api/listings/${encodeURIComponent(id)}/status`, {
        method: 'POST',
        body: { status },
      }),
    onSuccess: invalidate,
  });
}

export function useCompleteListing() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CompleteListingInput }) =>
      api<ListingDetail>(`/api/listings/${encodeURIComponent(id)}/complete`, {
        method: 'POST',
        body,
      }),
    onSuccess: invalidate,
  });
}

export function useDeleteListing() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(`/api/listings/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

/** Why a cover upload failed, as a locale key or the server's (already translated) message. */
export class UploadError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly translated: boolean,
  ) {
    super(message);
  }
}

/**
 * POST /api/uploads/cover with XMLHttpRequest, because fetch cannot report upload progress.
 * onProgress receives 0..100.
 */
export function uploadCover(
  file: File,
  language: string,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<CoverUpload> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/uploads/cover');
    xhr.setRequestHeader('accept-language', language);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let data: unknown;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && data && typeof data === 'object') {
        onProgress(100);
        return resolve(data as CoverUpload);
      }
      if (xhr.status === 401) {
        reportUnauthorized('/api/uploads/cover');
        return reject(new UploadError(401, 'sell.upload.sessionExpired', false));
      }
      const message = (data as { error?: { message?: string } } | undefined)?.error?.message;
      if ((xhr.status === 400 || xhr.status === 413 || xhr.status === 415) && message)
        return reject(new UploadError(xhr.status, message, true));
      reject(new UploadError(xhr.status, 'sell.upload.failed', false));
    };
    xhr.onerror = () => reject(new UploadError(0, 'sell.upload.failed', false));
    xhr.onabort = () => reject(new UploadError(0, 'sell.upload.failed', false));
    signal?.addEventListener('abort', () => xhr.abort());
    const body = new FormData();
    body.append('file', file);
    xhr.send(body);
  });
}
