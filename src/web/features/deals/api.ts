import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Deal } from '@shared/schemas/deals';
import { api } from '../../lib/api';

export const dealKeys = {
  all: ['deals'] as const,
  one: (id: string) => ['deals', 'one', id] as const,
};

/** One deal as the member may see it (its sides, or an admin for a problem's case). */
export function useDeal(id: string) {
  return useQuery({
    queryKey: dealKeys.one(id),
    queryFn: ({ signal }) =>
      api<{ deal: Deal }>(`/api/deals/${encodeURIComponent(id)}`, { signal }).then((r) => r.deal),
  });
}

/**
 * A step of deal `id` (POST `/api/deals/:id/<path>` with `body`): the answer is the deal as it is
 * now, which replaces the cached one. Post and meetings use it for their steps.
 */
export function useDealStep<Body = void>(id: string, path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) =>
      api<{ deal: Deal }>(`/api/deals/${encodeURIComponent(id)}/${path}`, {
        method: 'POST',
        ...(body === undefined ? {} : { body }),
      }).then((r) => r.deal),
    onSuccess: (deal) => {
      client.setQueryData(dealKeys.one(id), deal);
      void client.invalidateQueries({ queryKey: dealKeys.all });
    },
  });
}
