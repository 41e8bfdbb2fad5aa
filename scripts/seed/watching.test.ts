import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';

describe('seed:demo watching step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds watched listings and a seller on holiday, once', async () => {
    await runSeed({ config, database, log: quiet });
    const count = async () =>
      (
        await database.query<{
          watches: number;
          holidays: number;
          told: number;
          replies: number;
        }>(
          `select (select count(*)::int from listing_watches) as watches,
             (select count(*)::int from member_holidays) as holidays,
             (select count(*)::int from notifications where type = 'watch.changed') as told,
             (select count(*)::int from chat_messages
              where type = 'system' and content like 'holiday|%') as replies`,
        )
      )[0];
    const first = await count();
    expect(first.watches).toBeGreaterThanOrEqual(6);
    expect(first.holidays).toBe(1);
    expect(first.told).toBeGreaterThanOrEqual(1);
    expect(first.replies).toBe(1);
    await runSeed({ config, database, log: quiet });
    expect(await count()).toEqual(first);

    // Emily's watched page lists them; Dan's profile says when he is back.
    const cookie = await signIn(testApp, 'emily.carter@example.org', DEMO_PASSWORD);
    const page = (
      await inject({ method: 'GET', url: '/api/me/watches', headers: { cookie } })
    ).json();
    expect(page.total).toBeGreaterThanOrEqual(1);
    // A watched listing got cheaper: a watcher's bell says so.
    const [watcher] = await database.query<{ recipient_id: string }>(
      `select recipient_id from notifications where type = 'watch.changed'`,
    );
    const [someone] = await database.query<{ email: string }>(
      'select email::text as email from users where id = $1',
      [watcher.recipient_id],
    );
    const bell = (
      await inject({
        method: 'GET',
        url: '/api/notifications',
        headers: { cookie: await signIn(testApp, someone.email, DEMO_PASSWORD) },
      })
    ).json();
    expect(bell.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'watch.changed',
          data: expect.objectContaining({ context: 'priceDrop' }),
        }),
      ]),
    );
    // Emily wrote to Dan about a listing and reads his automatic reply.
    const rooms = (
      await inject({ method: 'GET', url: '/api/chats/rooms', headers: { cookie } })
    ).json();
    const withDan = rooms.items.find((r: { participants: Array<{ username: string }> }) =>
      r.participants.some((p) => p.username === 'dan_hughes'),
    );
    expect(withDan).toBeTruthy();
    const messages = (
      await inject({
        method: 'GET',
        url: `/api/chats/rooms/${withDan.id}/messages`,
        headers: { cookie },
      })
    ).json();
    expect(messages.items.at(-1)).toMatchObject({
      type: 'system',
      content: expect.stringMatching(/^holiday\|\d{4}-\d{2}-\d{2}\|Travelling/),
    });
    const [dan] = await database.query<{ id: string }>(
      `select id from users where username = 'dan_hughes'`,
    );
    const holiday = (await inject({ method: 'GET', url: `/api/users/${dan.id}/holiday` })).json();
    expect(holiday.backAt).not.toBeNull();
  }, 180_000);
});
