import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateSavedSearchInput,
  SavedSearch,
  SavedSearchPage,
  UpdateSavedSearchInput,
} from '@shared/schemas/savedSearches';
import { api } from '../../lib/api';

export const savedSearchKeys = {
  all: ['savedSearches'] as const,
  page: (page: number) => ['savedSearches', 'page', page] as const,
};

export function useSavedSearches(page: number) {
  return useQuery({
    queryKey: savedSearchKeys.page(page),
    queryFn: ({ signal }) =>
      api<SavedSearchPage>(`/api/me/saved-searches?page=${page}`, { signal }),
  });
}

export function useSaveSearch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSavedSearchInput) =>
      api<SavedSearch>('/api/me/saved-searches', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: savedSearchKeys.all }),
  });
}

export function useUpdateSavedSearch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateSavedSearchInput & { id: string }) =>
      api<SavedSearch>(`/api/me/saved-searches/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: savedSearchKeys.all }),
  });
}

export function useDeleteSavedSearch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(`/api/me/saved-searches/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: savedSearchKeys.all }),
  });
}
