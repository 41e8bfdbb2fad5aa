import { useQuery } from '@tanstack/react-query';
import type { WorkPage } from '@shared/works';
import { api } from '../../lib/api';

export const workKeys = {
  all: ['works'] as const,
  page: (id: string) => ['works', id] as const,
};

/** GET /api/works/:id: a work and its available copies, cheapest delivered first. */
export function useWork(id: string | undefined) {
  return useQuery({
    queryKey: workKeys.page(id ?? ''),
    queryFn: ({ signal }) => api<WorkPage>(`/api/works/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
  });
}
