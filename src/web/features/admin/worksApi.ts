import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminWorkDetail, AdminWorkPage, Work, WorkPatch } from '@shared/works';
import { api } from '../../lib/api';

/** The admins' works screen (issue 35): search, one work with its books, corrections. */
const keys = {
  search: (q: string, page: number) => ['admin', 'works', 'search', q, page] as const,
  work: (id: string) => ['admin', 'works', 'one', id] as const,
};

export function useWorkSearch(q: string, page: number, enabled = true) {
  return useQuery({
    queryKey: keys.search(q, page),
    queryFn: ({ signal }) =>
      api<AdminWorkPage>(`/api/admin/works?q=${encodeURIComponent(q)}&page=${page}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useAdminWork(id: string | null) {
  return useQuery({
    queryKey: keys.work(id ?? ''),
    queryFn: ({ signal }) =>
      api<AdminWorkDetail>(`/api/admin/works/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
  });
}

/** After any correction: the screen, the log and the public pages read again. */
function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['admin'] });
    void client.invalidateQueries({ queryKey: ['works'] });
  };
}

export function usePatchWork(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (patch: WorkPatch) =>
      api<Work>(`/api/admin/works/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch }),
    onSuccess: refresh,
  });
}

/** Moves a catalogue book to another work, or to a new one ('new'). */
export function useMoveBook() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ bookId, workId }: { bookId: string; workId: string }) =>
      api<{ bookId: string; workId: string }>(
        `/api/admin/books/${encodeURIComponent(bookId)}/work`,
        { method: 'PUT', body: { workId } },
      ),
    onSuccess: refresh,
  });
}

/** Merges the work `from` into the work `id` (kept). */
export function useMergeWorks(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (from: string) =>
      api<Work>(`/api/admin/works/${encodeURIComponent(id)}/merge`, {
        method: 'POST',
        body: { from },
      }),
    onSuccess: refresh,
  });
}
