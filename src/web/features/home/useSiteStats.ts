import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export interface SiteStats {
  booksAvailable: number;
  activeUsers: number;
  totalTransactions: number;
}

export function useSiteStats() {
  return useQuery({
    queryKey: ['stats'],
    queryFn: () => api<SiteStats>('/api/stats'),
    retry: false,
    staleTime: 30_000,
  });
}
