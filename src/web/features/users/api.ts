import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PublicProfile, UserListingPage } from '@shared/marketplace';
import { api } from '../../lib/api';

const no404Retry = (count: number, err: Error) =>
  count < 1 && (err as { status?: number }).status !== 404;

export function usePublicProfile(userId: string | undefined) {
  return useQuery({
    queryKey: ['users', userId, 'profile'],
    queryFn: ({ signal }) =>
      api<PublicProfile>(`/api/users/${encodeURIComponent(userId!)}/profile`, { signal }),
    enabled: !!userId,
    retry: no404Retry,
  });
}

export function useUserListings(userId: string | undefined, type: string, page: number) {
  return useQuery({
    queryKey: ['users', userId, 'listings', type, page],
    queryFn: ({ signal }) =>
      api<UserListingPage>(
        `/api/users/${encodeURIComponent(userId!)}/listings?${new URLSearchParams({ type, page: String(page) })}`,
        { signal },
      ),
    enabled: !!userId,
    placeholderData: keepPreviousData,
    retry: no404Retry,
  });
}
