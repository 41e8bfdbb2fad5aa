import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/schemas/chats';
import { missedMessageEmail } from './email';

// An offer reaches a member who is away by e-mail: its amount is written as the recipient reads
// money ("7,50 €" in Italian, "€7.50" in English), never "7.50 EUR".
const offer = {
  type: 'offer',
  content: '',
  offer: { amount: 7.5, currency: 'EUR' },
  listing: { title: 'Marcovaldo' },
} as unknown as ChatMessage;

const quoteOf = (lang: 'it' | 'en', message: ChatMessage) =>
  missedMessageEmail(
    lang,
    { email: 'sara@example.com', name: 'Sara' },
    'Bruno',
    { name: null, isGroup: false },
    message,
    'https://x.test/chat',
  ).text;

describe('the missed-message e-mail of an offer', () => {
  it('writes the amount in the recipient’s language', () => {
    expect(quoteOf('it', offer)).toContain("Un'offerta di 7,50\u00a0€ per «Marcovaldo»");
    expect(quoteOf('en', offer)).toContain('An offer of €7.50 for “Marcovaldo”');
  });

  it('writes dollars and pounds the same way', () => {
    const dollars = { ...offer, offer: { amount: 1234.5, currency: 'USD' } } as ChatMessage;
    const pounds = { ...offer, offer: { amount: 12, currency: 'GBP' } } as ChatMessage;
    expect(quoteOf('en', dollars)).toContain('$1,234.50');
    expect(quoteOf('it', pounds)).toContain('12,00\u00a0£');
    expect(quoteOf('en', offer)).not.toContain('EUR');
  });
});
