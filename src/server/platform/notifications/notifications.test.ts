import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { createTestNotifications, recordUserPushes } from '../../test/notifications';
import type { NotificationService } from '.';

const { realtime, pushed } = recordUserPushes();

let t: TestApp;
let service: NotificationService;
let ada: Member;
let bruno: Member;
let carla: Member;
let dario: Member;
let clock = new Date('2026-05-01T10:00:00Z');
const hidden = new Set<string>();

beforeAll(async () => {
  t = await createTestApp();
  service = createTestNotifications({ database: t.database, realtime, now: () => clock });
  service.defineType({
    type: 'test.plain',
    defaults: { inApp: true, email: true },
    link: ({ subjectId }) => `/things/${subjectId}`,
  });
  service.defineType({
    type: 'test.guarded',
    defaults: { inApp: true, email: false },
    link: ({ subjectId, recipientId }) => `/profile/${recipientId}/things/${subjectId}`,
    async visible(_recipientId, ids) {
      return new Set(ids.filter((id) => !hidden.has(id)));
    },
  });
  [ada, bruno, carla, dario] = await Promise.all([
    createMember(t, { username: 'ada_n', displayName: 'Ada' }),
    createMember(t, { username: 'bruno_n', displayName: 'Bruno' }),
    createMember(t, { username: 'carla_n', displayName: 'Carla' }),
    createMember(t, { username: 'dario_n', displayName: 'Dario' }),
  ]);
});

beforeEach(async () => {
  await t.database.query('delete from notifications');
  await t.database.query('delete from notification_settings');
  pushed.length = 0;
  hidden.clear();
  clock = new Date(clock.getTime() + 60_000);
});

const rows = async (recipientId: string) =>
  t.database.query<{ type: string; actor_id: string | null; actor_count: number }>(
    'select type, actor_id, actor_count from notifications where recipient_id = $1 order by updated_at desc',
    [recipientId],
  );

describe('notify', () => {
  it('stores the notification, lists it with its link and pushes the unread count', async () => {
    await service.notify({
      recipientId: ada.id,
      type: 'test.plain',
      actorId: bruno.id,
      subject: { type: 'thing', id: 'T1' },
      data: { title: 'Il nome della rosa' },
    });
    const page = await service.list(ada.id);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      type: 'test.plain',
      actor: { id: bruno.id, displayName: 'Bruno', avatarUrl: null },
      actorCount: 1,
      subject: { type: 'thing', id: 'T1' },
      data: { title: 'Il nome della rosa' },
      link: '/things/T1',
      read: false,
    });
    expect(await service.unreadCount(ada.id)).toBe(1);
    expect(pushed).toEqual([{ userIds: [ada.id], event: { type: 'notification.new', unread: 1 } }]);
  });

  it('ignores the actor’s own action, an undefined type and oversized data, without throwing', async () => {
    await service.notify([
      {
        recipientId: ada.id,
        type: 'test.plain',
        actorId: ada.id,
        subject: { type: 'thing', id: '1' },
      },
      { recipientId: ada.id, type: 'nope', subject: { type: 'thing', id: '2' } },
      {
        recipientId: ada.id,
        type: 'test.plain',
        subject: { type: 'thing', id: '3' },
        data: { big: 'x'.repeat(2000) },
      },
      { recipientId: 'no-such-member', type: 'test.plain', subject: { type: 'thing', id: '4' } },
    ]);
    expect(await rows(ada.id)).toEqual([]);
    expect(pushed).toEqual([]);
  });

  it('stores a once-keyed notification once, even when the calls race', async () => {
    const input = {
      recipientId: ada.id,
      type: 'test.plain',
      actorId: bruno.id,
      subject: { type: 'thing', id: 'L1' },
      onceKey: 'L1',
    };
    await Promise.all([service.notify(input), service.notify(input), service.notify(input)]);
    await service.notify(input);
    expect(await rows(ada.id)).toHaveLength(1);
    // Another key, or another recipient, is another notification.
    await service.notify({ ...input, onceKey: 'L2' });
    await service.notify({ ...input, recipientId: carla.id });
    expect(await rows(ada.id)).toHaveLength(2);
    expect(await rows(carla.id)).toHaveLength(1);
  });

  it('folds unread notifications of one group into one row that counts its actors', async () => {
    const like = (actorId: string) => ({
      recipientId: ada.id,
      type: 'test.plain',
      actorId,
      subject: { type: 'post', id: 'P1' },
      groupKey: 'post:P1',
    });
    await service.notify(like(bruno.id));
    clock = new Date(clock.getTime() + 1000);
    await service.notify(like(carla.id));
    await service.notify(like(carla.id)); // the same actor again is not counted twice in a row
    clock = new Date(clock.getTime() + 1000);
    await service.notify(like(dario.id));
    expect(await rows(ada.id)).toEqual([
      { type: 'test.plain', actor_id: dario.id, actor_count: 3 },
    ]);
    const [item] = (await service.list(ada.id)).items;
    expect(item.actor?.displayName).toBe('Dario');
    expect(item.actorCount).toBe(3);
    expect(await service.unreadCount(ada.id)).toBe(1);

    // Once read, the next actor starts a new unread row.
    await service.markRead(ada.id, item.id);
    await service.notify(like(bruno.id));
    expect(await rows(ada.id)).toHaveLength(2);
    expect(await service.unreadCount(ada.id)).toBe(1);
  });

  it('counts every actor when several fold in at once', async () => {
    await Promise.all(
      [bruno, carla, dario].map((m) =>
        service.notify({
          recipientId: ada.id,
          type: 'test.plain',
          actorId: m.id,
          subject: { type: 'post', id: 'P2' },
          groupKey: 'post:P2',
        }),
      ),
    );
    const all = await rows(ada.id);
    expect(all).toHaveLength(1);
    expect(all[0].actor_count).toBe(3);
  });

  it('stores nothing when the member turned both switches off; keeps an e-mail-only row out of the list', async () => {
    await service.updateSettings(ada.id, { 'test.plain': { inApp: false, email: false } });
    await service.notify({
      recipientId: ada.id,
      type: 'test.plain',
      subject: { type: 'thing', id: 'X' },
    });
    expect(await rows(ada.id)).toEqual([]);

    await service.updateSettings(ada.id, { 'test.plain': { email: true } });
    await service.notify({
      recipientId: ada.id,
      type: 'test.plain',
      subject: { type: 'thing', id: 'X' },
    });
    expect(await rows(ada.id)).toHaveLength(1);
    expect((await service.list(ada.id)).items).toEqual([]);
    expect(await service.unreadCount(ada.id)).toBe(0);
    expect(pushed).toEqual([]);
  });

  it('leaves a type that sends its own e-mail out of the digest; emailWanted follows the switches', async () => {
    service.defineType({
      type: 'test.own',
      defaults: { inApp: true, email: true },
      ownEmail: true,
      link: () => '/things',
    });
    expect(await service.emailWanted(ada.id, 'test.own')).toBe(true);
    expect(await service.emailWanted(ada.id, 'test.undefined')).toBe(false);
    await service.notify({
      recipientId: ada.id,
      type: 'test.own',
      subject: { type: 'thing', id: 'O' },
    });
    const [row] = await t.database.query<{ email_pending: boolean; in_app: boolean }>(
      `select email_pending, in_app from notifications where recipient_id = $1`,
      [ada.id],
    );
    expect(row).toEqual({ email_pending: false, in_app: true });
    await service.updateSettings(ada.id, { 'test.own': { email: false } });
    expect(await service.emailWanted(ada.id, 'test.own')).toBe(false);
    await service.updateSettings(ada.id, { 'test.own': { email: true } });
    await t.database.query('update users set email_notifications = false where id = $1', [ada.id]);
    expect(await service.emailWanted(ada.id, 'test.own')).toBe(false);
    await t.database.query('update users set email_notifications = true where id = $1', [ada.id]);
  });
});

describe('visibility and removal', () => {
  it('leaves out of the list and the count what the recipient may no longer see', async () => {
    for (const id of ['A', 'B', 'C']) {
      clock = new Date(clock.getTime() + 1000);
      await service.notify({
        recipientId: ada.id,
        type: 'test.guarded',
        subject: { type: 'thing', id },
      });
    }
    hidden.add('B');
    const page = await service.list(ada.id);
    expect(page.items.map((i) => i.subject.id)).toEqual(['C', 'A']);
    expect(page.items[0].link).toBe(`/profile/${ada.id}/things/C`);
    expect(await service.unreadCount(ada.id)).toBe(2);
  });

  it('pages newest first with a cursor, skipping hidden rows to fill a page', async () => {
    for (let i = 0; i < 7; i++) {
      clock = new Date(clock.getTime() + 1000);
      await service.notify({
        recipientId: ada.id,
        type: 'test.guarded',
        subject: { type: 'thing', id: `S${i}` },
      });
    }
    hidden.add('S5');
    hidden.add('S4');
    const first = await service.list(ada.id, { limit: 2 });
    expect(first.items.map((i) => i.subject.id)).toEqual(['S6', 'S3']);
    const second = await service.list(ada.id, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((i) => i.subject.id)).toEqual(['S2', 'S1']);
    const third = await service.list(ada.id, { limit: 2, cursor: second.nextCursor! });
    expect(third.items.map((i) => i.subject.id)).toEqual(['S0']);
    expect(third.nextCursor).toBeNull();
  });

  it('removeForSubject deletes every notification about those subjects', async () => {
    for (const r of [ada, bruno])
      for (const id of ['R1', 'R2', 'R3'])
        await service.notify({
          recipientId: r.id,
          type: 'test.plain',
          subject: { type: 'room', id },
        });
    await service.notify({
      recipientId: ada.id,
      type: 'test.plain',
      subject: { type: 'post', id: 'R1' },
    });
    await service.removeForSubject('room', 'R1');
    await service.removeForSubject('room', ['R2']);
    const left = await t.database.query<{ subject_type: string; subject_id: string }>(
      'select subject_type, subject_id from notifications order by subject_type, subject_id',
    );
    expect(left).toEqual([
      { subject_type: 'post', subject_id: 'R1' },
      { subject_type: 'room', subject_id: 'R3' },
      { subject_type: 'room', subject_id: 'R3' },
    ]);
  });

  it('a deleted account takes its notifications, as recipient and as actor', async () => {
    const gone = await createMember(t, { username: 'gone_n' });
    await service.notify({
      recipientId: gone.id,
      type: 'test.plain',
      subject: { type: 'thing', id: '1' },
    });
    await service.notify({
      recipientId: ada.id,
      type: 'test.plain',
      actorId: gone.id,
      subject: { type: 'thing', id: '2' },
    });
    await t.database.query('delete from users where id = $1', [gone.id]);
    expect(
      (
        await t.database.query(
          'select 1 from notifications where recipient_id = $1 or actor_id = $1',
          [gone.id],
        )
      ).length,
    ).toBe(0);
  });
});

describe('the text of a notification on the server (e-mails)', () => {
  it('uses the same locale keys as the web, with context and language', async () => {
    const { notificationText } = await import('.');
    const offer = {
      type: 'offer.answered',
      actorName: 'Sara',
      actorCount: 1,
      data: { context: 'accepted', amount: 15, currency: 'EUR', title: 'Marcovaldo' },
    };
    expect(notificationText('en', offer)).toBe(
      'Sara accepted your offer of €15.00 for “Marcovaldo”',
    );
    expect(notificationText('it', { ...offer, data: { ...offer.data, context: 'declined' } })).toBe(
      'Sara ha rifiutato la tua offerta di 15,00\u00a0€ per «Marcovaldo»',
    );
    expect(
      notificationText('en', { ...offer, actorName: null, data: { title: 'Marcovaldo' } }),
    ).toBe('A member answered your offer for “Marcovaldo”');
  });

  it('writes an amount stored already written ("15.00 EUR") in the reader’s language', async () => {
    const { notificationText } = await import('.');
    const old = {
      type: 'offer.received',
      actorName: 'Sara',
      actorCount: 1,
      data: { amount: '15.00 EUR', title: 'Marcovaldo' },
    };
    expect(notificationText('en', old)).toBe('Sara offered €15.00 for “Marcovaldo”');
    expect(notificationText('it', old)).toContain('15,00\u00a0€');
  });
});
