// Test support for the wishlist tests (not a test file itself).
import { expect } from 'vitest';
import type { callAs, Member } from '../../test/members';

/** What a member does in the wishlist tests, through HTTP as `call` (callAs) sends it. */
export function wishlistSteps(call: ReturnType<typeof callAs>) {
  return {
    /** Adds a catalogue book to `who`'s wishlist. */
    async wish(who: Member, bookId: string) {
      const res = await call(who, 'POST', '/api/me/wishlist/items', { bookId });
      expect(res.statusCode, res.body).toBe(201);
    },
    /** Lists a catalogue book for trade with the quick form; the new listing's id. */
    async listForTrade(who: Member, bookId: string, title: string, author: string) {
      const res = await call(who, 'POST', '/api/listings', {
        mode: 'quickTrade',
        bookId,
        title,
        author,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    },
  };
}
