import { useQuery } from '@tanstack/react-query';
import type { Shelves } from '@shared/marketplace';
import { api } from '../../lib/api';
import { listingKeys } from '../listings';

/** GET /api/shelves/home: just listed, best deals and one genre (empty shelves left out). */
export function useHomeShelves() {
  return useQuery({
    queryKey: [...listingKeys.shelves, 'home'],
    queryFn: ({ signal }) => api<Shelves>('/api/shelves/home', { signal }),
  });
}
