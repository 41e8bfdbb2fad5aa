import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PendingTransactions, TransactionAnswer } from '@shared/transactions';
import { api } from '../../lib/api';

/** Sales and trades waiting for my answer, and mine waiting for the other member's. */
export function usePendingTransactions() {
  return useQuery({
    queryKey: ['transactions', 'pending'],
    queryFn: ({ signal }) => api<PendingTransactions>('/api/transactions/pending', { signal }),
  });
}

/** Confirm or decline (the seller: take back) a pending sale; trades, listings and stats follow. */
export function useAnswerTransaction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'confirm' | 'decline' }) =>
      api<TransactionAnswer>(`/api/transactions/${encodeURIComponent(id)}/${action}`, {
        method: 'POST',
      }),
    onSettled: () => {
      for (const key of ['transactions', 'reviews', 'listings', 'me', 'users'])
        void client.invalidateQueries({ queryKey: [key] });
    },
  });
}
