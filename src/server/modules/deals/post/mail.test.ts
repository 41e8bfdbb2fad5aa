import { beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../../platform/mail';
import type { NotificationService } from '../../../platform/notifications';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/app';
import { createTestNotifications, recordUserPushes } from '../../../test/notifications';
import { requester, createMember, type Member } from '../../../test/members';
import { openDealBetween } from '../../../test/deals';

/**
 * Each step of a sale by post reaches the other side live (a push), in the bell, and in the
 * e-mail digest in their language — unless they turned deal steps off by e-mail.
 */
const { realtime, pushed } = recordUserPushes((event) => event.type === 'notification.new');
let clock = new Date('2026-05-04T08:00:00Z');
let t: TestApp;
let notifications: NotificationService;
let req: ReturnType<typeof requester>;
let seller: Member;
let buyer: Member;

beforeAll(async () => {
  const database = await createTestDatabase();
  const mailer = createMailer({ database, from: 'Scaffale <no-reply@scaffale.local>' });
  notifications = createTestNotifications({ database, realtime, mailer, now: () => clock });
  t = await createTestApp({
    database,
    deps: { mailer, realtime, notifications, now: () => clock },
  });
  req = requester(t);
  [seller, buyer] = await Promise.all([
    createMember(t, { displayName: 'Sara Spedisce' }),
    createMember(t, { displayName: 'Bruno Compra' }),
  ]);
  await t.database.query(`update users set preferred_language = 'it' where id = $1`, [buyer.id]);
}, 120_000);

const outbox = (to: Member) =>
  t.database.query<{ subject: string; text: string }>(
    'select subject, text from mail_outbox where "to" = $1 order by id',
    [to.email],
  );

describe('the steps’ notifications', () => {
  it('tell the buyer of the shipping live, in the bell and by e-mail in Italian', async () => {
    const d = await openDealBetween(t, seller, buyer, { listing: { shippingCost: 4 } });
    const address = {
      name: 'B',
      street: 'Via 1',
      postalCode: '10100',
      city: 'Torino',
      country: 'IT',
    };
    expect(
      (await req('POST', `/api/deals/${d.dealId}/address`, buyer, { address })).statusCode,
    ).toBe(200);
    pushed.length = 0;
    clock = new Date(clock.getTime() + 60_000);
    const ship = await req('POST', `/api/deals/${d.dealId}/ship`, seller, {
      carrier: 'dhl',
      tracking: 'JD0123',
    });
    expect(ship.statusCode).toBe(200);
    expect(pushed.some((p) => p.userIds.includes(buyer.id))).toBe(true);
    const bell = (await req('GET', '/api/notifications', buyer, undefined, 'it')).json();
    const steps = bell.items.filter((n: { type: string }) => n.type === 'deal.step');
    expect(JSON.stringify(steps)).toContain('post_shipped');
    clock = new Date(clock.getTime() + 2 * 60 * 60 * 1000);
    await notifications.runDigests();
    const mails = await outbox(buyer);
    expect(mails.at(-1)?.text).toContain('Sara Spedisce ha spedito il tuo pacco');
  });

  it('send no e-mail to a member who turned deal steps off', async () => {
    const off = await req('PATCH', '/api/notifications/settings', seller, {
      'deal.step': { email: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const before = (await outbox(seller)).length;
    const d = await openDealBetween(t, seller, buyer, { listing: { shippingCost: 4 } });
    const address = {
      name: 'B',
      street: 'Via 1',
      postalCode: '10100',
      city: 'Torino',
      country: 'IT',
    };
    await req('POST', `/api/deals/${d.dealId}/address`, buyer, { address });
    clock = new Date(clock.getTime() + 2 * 60 * 60 * 1000);
    await notifications.runDigests();
    // Other news may still come by e-mail (the offer), never the deal's steps.
    const mails = (await outbox(seller)).slice(before);
    expect(mails.map((m) => m.text).join('\n')).not.toContain("ha dato l'indirizzo di spedizione");
    // Still in the bell.
    const bell = (await req('GET', '/api/notifications', seller)).json();
    expect(JSON.stringify(bell.items)).toContain('post_address_given');
  });
});
