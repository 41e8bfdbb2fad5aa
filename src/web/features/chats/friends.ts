// Friends for the new-chat modal: GET /api/connections of the connections module, all pages.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { FriendPage } from '@shared/connections';
import { api } from '../../lib/api';
import { chatKeys } from './api';

export function useFriends(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: chatKeys.friends,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api<FriendPage>(`/api/connections?page=${pageParam}`, { signal }),
    getNextPageParam: (last) =>
      last.page * last.pageSize < last.total ? last.page + 1 : undefined,
    select: (data) => ({
      friends: data.pages.flatMap((p) => p.items.map((f) => f.member)),
      total: data.pages[0]?.total ?? 0,
    }),
    enabled,
  });
}
