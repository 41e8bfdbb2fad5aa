/**
 * What changed in the marketplace, for the modules that follow it: a typed subscriber registry.
 * The module that makes a change emits one event (a deal opened or ended, listings whose status an
 * offer or a deal changed); the modules that care subscribe at start (`on`), so the one that
 * changes imports none of them. The chat cards and the wishlist follow the listings, payments
 * follow the deals.
 *
 * Unlike the "listing changed" hook (./listing-changes.ts: watchers and saved searches, after the
 * answer, failures logged), these handlers run inside the request, awaited in the order they
 * subscribed, and a handler's error is the caller's: 'deal.opened' and 'deal.shipping' run in the
 * caller's transaction, so a refusal there (a 409) rolls the step back.
 */
import type { Query } from '../db/tx';

export interface ChangeTopics {
  /**
   * Listings whose status an offer or a deal changed (reserved, sold, traded, available again),
   * after the commit: the conversations' cards and the wishers' "available now" follow.
   */
  'listings.status': { listingIds: readonly string[] };
  /** A deal opened, in the transaction that accepts its offer (payments: what the buyer owes). */
  'deal.opened': { q: Query; dealId: string };
  /**
   * The seller is about to ship a deal's parcel, in the step's transaction: a subscriber refuses
   * by throwing (payments: not paid yet).
   */
  'deal.shipping': { q: Query; dealId: string };
  /** A deal ended, completed or cancelled, after the commit (payments: release or refund). */
  'deal.ended': { dealId: string };
  /**
   * An admin closes a deal's case in the buyer's favour with the sale standing: `cents` of the
   * seller's share go back to the buyer, claimed in the case's transaction (payments; a refusal
   * rolls the outcome back).
   */
  'deal.caseRefund': { q: Query; dealId: string; cents: number };
}

export type ChangeTopic = keyof ChangeTopics;
export type ChangeHandler<T extends ChangeTopic> = (event: ChangeTopics[T]) => Promise<void> | void;

export interface Changes {
  /** Subscribes to `topic`; returns a function that unsubscribes. */
  on<T extends ChangeTopic>(topic: T, handler: ChangeHandler<T>): () => void;
  /**
   * Runs the handlers of `topic` one after the other; the first failure is thrown. Answers how
   * many handlers ran (none: nobody follows that change here).
   */
  emit<T extends ChangeTopic>(topic: T, event: ChangeTopics[T]): Promise<number>;
}

export function createChanges(): Changes {
  const handlers = new Map<ChangeTopic, Set<ChangeHandler<ChangeTopic>>>();
  return {
    on(topic, handler) {
      const set = handlers.get(topic) ?? new Set();
      handlers.set(topic, set);
      const h = handler as ChangeHandler<ChangeTopic>;
      set.add(h);
      return () => set.delete(h);
    },
    async emit(topic, event) {
      const list = [...(handlers.get(topic) ?? [])];
      for (const handler of list) await handler(event);
      return list.length;
    },
  };
}
