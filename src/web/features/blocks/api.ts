import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BlockedPage, BlockState } from '@shared/blocks';
import { api } from '../../lib/api';

const path = (userId: string) => `/api/blocks/${encodeURIComponent(userId)}`;

/** Whether I blocked this member (null id or signed out: not asked). */
export function useBlockState(userId: string | null | undefined, enabled = true) {
  return useQuery({
    queryKey: ['blocks', 'state', userId],
    queryFn: ({ signal }) => api<BlockState>(path(userId!), { signal }),
    enabled: enabled && !!userId,
  });
}

export function useBlockedMembers(page: number) {
  return useQuery({
    queryKey: ['blocks', 'list', page],
    queryFn: ({ signal }) => api<BlockedPage>(`/api/blocks?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Blocks (block: true) or unblocks a member; what either member sees changes everywhere. */
export function useSetBlocked() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, block }: { userId: string; block: boolean }) =>
      api<BlockState>(path(userId), { method: block ? 'PUT' : 'DELETE' }),
    onSuccess: (state) => {
      client.setQueryData(['blocks', 'state', state.userId], state);
      // Listings, posts, comments, friends and searches all depend on it.
      void client.invalidateQueries({
        predicate: (q) => !(q.queryKey[0] === 'blocks' && q.queryKey[1] === 'state'),
      });
    },
  });
}
