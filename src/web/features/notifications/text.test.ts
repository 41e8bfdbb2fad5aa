import { describe, expect, it } from 'vitest';
import type { NotificationView } from '@shared/notifications';
import { createTranslator } from '@web/lib/translator';
import { notificationText } from './text';

// The translator that ships (lib/translator.ts), not i18next.
const catalogue = {
  notifications: {
    someone: 'A member',
    types: {
      post: {
        liked_zero: '{{actor}} liked “{{title}}”',
        liked_one: '{{actor}} and 1 other liked “{{title}}”',
        liked_other: '{{actor}} and {{count}} others liked “{{title}}”',
      },
      deal: {
        step: '{{actor}} moved your deal on',
        step_deal_completed: 'Your deal with {{actor}} is complete',
        step_deal_completed_trade: 'Your trade with {{actor}} is complete',
        step_deal_opened: '{{actor}} opened your deal',
      },
      offer: {
        answered: '{{actor}} answered',
        answered_accepted: '{{actor}} accepted your offer of {{amount}}',
      },
    },
  },
};
const i18n = createTranslator({
  supported: ['en'],
  fallback: 'en',
  detect: () => ['en'],
  remember: () => {},
  load: async () => catalogue,
});
await i18n.ready;

const base: NotificationView = {
  id: 'n1',
  type: 'post.liked',
  actor: { id: 'u1', displayName: 'Anna', avatarUrl: null },
  actorCount: 1,
  subject: { type: 'post', id: 'p1' },
  data: { title: 'Il Gattopardo' },
  link: '/community/p1',
  read: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('notificationText', () => {
  it('counts the other actors with the plural forms', () => {
    expect(notificationText(i18n.t, base, 'en')).toBe('Anna liked “Il Gattopardo”');
    expect(notificationText(i18n.t, { ...base, actorCount: 2 }, 'en')).toBe(
      'Anna and 1 other liked “Il Gattopardo”',
    );
    expect(notificationText(i18n.t, { ...base, actorCount: 4 }, 'en')).toBe(
      'Anna and 3 others liked “Il Gattopardo”',
    );
  });

  it('names "a member" when the actor is gone, and picks the data’s context', () => {
    expect(notificationText(i18n.t, { ...base, actor: null }, 'en')).toBe(
      'A member liked “Il Gattopardo”',
    );
    const offer = {
      ...base,
      type: 'offer.answered',
      data: { context: 'accepted', amount: 15, currency: 'EUR' },
    };
    expect(notificationText(i18n.t, offer, 'en')).toBe('Anna accepted your offer of €15.00');
    expect(notificationText(i18n.t, { ...offer, data: { context: 'unknown' } }, 'en')).toBe(
      'Anna answered',
    );
    // A trade's step: its own words where they exist, the step's otherwise, then the type's.
    const step = (data: Record<string, string>) =>
      notificationText(i18n.t, { ...base, type: 'deal.step', data }, 'en');
    expect(step({ context: 'deal_completed' })).toBe('Your deal with Anna is complete');
    expect(step({ context: 'deal_completed', variant: 'trade' })).toBe(
      'Your trade with Anna is complete',
    );
    expect(step({ context: 'deal_opened', variant: 'trade' })).toBe('Anna opened your deal');
    expect(step({ context: 'meeting_proposed', variant: 'trade' })).toBe('Anna moved your deal on');
  });

  it('writes the money of the data in the reader’s language, old written amounts too', () => {
    const offer = { ...base, type: 'offer.answered' };
    const accepted = (data: NotificationView['data'], language: string) =>
      notificationText(i18n.t, { ...offer, data: { context: 'accepted', ...data } }, language);
    expect(accepted({ amount: 7.5, currency: 'EUR' }, 'en')).toBe(
      'Anna accepted your offer of €7.50',
    );
    expect(accepted({ amount: 7.5, currency: 'EUR' }, 'it')).toBe(
      'Anna accepted your offer of 7,50\u00a0€',
    );
    expect(accepted({ amount: '15.00 EUR' }, 'en')).toBe('Anna accepted your offer of €15.00');
  });
});
