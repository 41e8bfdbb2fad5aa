import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { randomClientIp } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';
import { demoConversations } from './chats';

describe('seed:demo chats', async () => {
  const { inject, database, config } = await createTestApp();
  const quiet = () => {};
  const counts = async () =>
    (
      await database.query(
        // The demo deals (a meeting proposed), the bundle (seed/bundles.ts) and the seller on
        // holiday's automatic reply (seed/watching.ts) each have a conversation of their own.
        `with others as (
           select room_id from deals
           union select room_id from offers where bundle
           union select room_id from holiday_replies)
         select (select count(*)::int from chat_rooms r
                  where r.id not in (select room_id from others)) as rooms,
                (select count(*)::int from chat_messages m
                  where m.room_id not in (select room_id from others)) as messages,
                (select count(*)::int from offers where status = 'pending' and not bundle)
                  as offers`,
      )
    )[0];

  // Seeding signs up a dozen members (password hashing): slow on a busy machine.
  it(
    'adds the demo conversations once, one of them with an open offer on a listing',
    { timeout: 90_000 },
    async () => {
      await runSeed({ config, database, log: quiet });
      const first = await counts();
      expect(first).toEqual({
        rooms: demoConversations.length,
        messages: demoConversations.reduce((n, c) => n + c.lines.length, 0),
        offers: 1,
      });
      await runSeed({ config, database, log: quiet });
      expect(await counts()).toEqual(first);
    },
  );

  it('shows a demo member the conversation, the listing card, the offer and unread messages', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/auth/sign-in/username',
      remoteAddress: randomClientIp(),
      payload: { username: 'giulia_legge', password: DEMO_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    const rooms = (
      await inject({ method: 'GET', url: '/api/chats/rooms', headers: { cookie } })
    ).json();
    const withMarco = rooms.items.find((r: { listing: { title: string } | null }) => r.listing);
    expect(withMarco.listing.title).toBe('Il nome della rosa');
    expect(withMarco.lastMessage).toMatchObject({
      type: 'offer',
      offer: { amount: 8, status: 'pending' },
    });
    expect(withMarco.unreadCount).toBe(2);
    const page = (
      await inject({
        method: 'GET',
        url: `/api/chats/rooms/${withMarco.id}/messages`,
        headers: { cookie },
      })
    ).json();
    expect(page.items[0]).toMatchObject({
      type: 'listing',
      listing: { title: 'Il nome della rosa' },
    });
  });
});
