import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddressInput, CaseSummary, SavedAddress } from '@shared/schemas/dealPost';
import { api } from '../../../lib/api';

const addressesKey = ['me', 'addresses'] as const;

/** My saved shipping addresses (settings, and the choice when a deal asks for one). */
export function useAddresses(enabled = true) {
  return useQuery({
    queryKey: addressesKey,
    queryFn: ({ signal }) =>
      api<{ items: SavedAddress[] }>('/api/me/addresses', { signal }).then((r) => r.items),
    enabled,
  });
}

/** Saves a new address (no id) or changes one. */
export function useSaveAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, address }: { id?: string; address: AddressInput }) =>
      api<{ address: SavedAddress }>(
        id ? `/api/me/addresses/${encodeURIComponent(id)}` : '/api/me/addresses',
        { method: id ? 'PUT' : 'POST', body: address },
      ).then((r) => r.address),
    onSuccess: () => client.invalidateQueries({ queryKey: addressesKey }),
  });
}

export function useDeleteAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api(`/api/me/addresses/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: addressesKey }),
  });
}

/** The admins' list of problems reported on parcels. */
export function useCases(page: number, openOnly: boolean, enabled = true) {
  return useQuery({
    queryKey: ['deals', 'cases', page, openOnly],
    queryFn: ({ signal }) =>
      api<{ items: CaseSummary[]; page: number; pageSize: number; total: number }>(
        `/api/admin/deal-cases?page=${page}${openOnly ? '&open=true' : ''}`,
        { signal },
      ),
    enabled,
  });
}
