import { useMutation } from '@tanstack/react-query';
import { CONTACT_SENDING_DELAY_MS } from '@shared/constants';
import type { ContactMessageInput } from '@shared/schemas/contact';
import { api } from '../../lib/api';

export interface ContactReceipt {
  id: number;
  received: true;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POST /api/contact. The sending state lasts at least CONTACT_SENDING_DELAY_MS, so a fast answer
 * does not flash past unseen; failures wait too, keeping the rhythm the same either way.
 */
export function useSendContactMessage() {
  return useMutation({
    mutationFn: async (message: ContactMessageInput) => {
      const started = Date.now();
      try {
        return await api<ContactReceipt>('/api/contact', { method: 'POST', body: message });
      } finally {
        await wait(Math.max(0, CONTACT_SENDING_DELAY_MS - (Date.now() - started)));
      }
    },
  });
}
