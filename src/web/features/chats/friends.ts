import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { chatKeys } from './api';

/** A friend as the new-chat modal needs them (GET /api/connections, the connections module). */
export interface ChatFriend {
  id: string;
  displayName: string;
  username: string | null;
  avatarUrl: string | null;
  avatarSeed?: string | null;
}

interface FriendPage {
  items: { member: ChatFriend }[];
  page: number;
  pageSize: number;
  total: number;
}

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
