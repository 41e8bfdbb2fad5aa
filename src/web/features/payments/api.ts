import { useMutation, useQuery } from '@tanstack/react-query';
import type { DealPaymentAnswer, PaymentsFee, PaymentsOverview } from '@shared/schemas/payments';
import { api } from '../../lib/api';

export const paymentKeys = {
  deal: (id: string) => ['payments', 'deal', id] as const,
  overview: ['payments', 'overview'] as const,
  fee: ['payments', 'fee'] as const,
};

/** Whether in-app payment is on here, and the buyer-protection fee (public, rarely changes). */
export function usePaymentsFee() {
  return useQuery({
    queryKey: paymentKeys.fee,
    staleTime: 60 * 60 * 1000,
    queryFn: ({ signal }) => api<PaymentsFee>('/api/payments/fee', { signal }),
  });
}

/** A deal's payment (issue 36): what the buyer pays and where the money is. */
export function useDealPayment(dealId: string, enabled = true) {
  return useQuery({
    queryKey: paymentKeys.deal(dealId),
    enabled,
    queryFn: ({ signal }) =>
      api<DealPaymentAnswer>(`/api/deals/${encodeURIComponent(dealId)}/payment`, { signal }),
  });
}

/** The member's payments page: whether payments are on, their account, their money. */
export function usePaymentsOverview() {
  return useQuery({
    queryKey: paymentKeys.overview,
    queryFn: ({ signal }) => api<PaymentsOverview>('/api/payments/account', { signal }),
  });
}

/** Goes to Stripe's hosted page the server answers with (Checkout, or onboarding). */
function useRedirect(path: () => string) {
  return useMutation({
    mutationFn: () => api<{ url: string }>(path(), { method: 'POST' }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export const usePayDeal = (dealId: string) =>
  useRedirect(() => `/api/deals/${encodeURIComponent(dealId)}/payment/checkout`);

export const useOnboarding = () => useRedirect(() => '/api/payments/account/onboarding');

/** The seller's Stripe Express dashboard (a fresh single-use link at each click). */
export const useDashboard = () => useRedirect(() => '/api/payments/account/dashboard');
