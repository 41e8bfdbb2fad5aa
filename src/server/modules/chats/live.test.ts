import { beforeAll, describe, expect, it } from 'vitest';
import { befriend, createMember, type Member } from '../../test/members';
import { createListing } from '../../test/listings';
import { createRecordingRealtime } from '../../test/realtime';
import { eventually, type TestApp } from '../../test/app';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

let t: TestApp, req: Requester;
let ada: Member, bea: Member, cleo: Member, dino: Member, emil: Member, outsider: Member;
const rt = createRecordingRealtime();
/** The app's clock, moved forward past the typing throttle and the hourly e-mail window. */
let clock = Date.parse('2026-03-02T09:00:00Z');

beforeAll(async () => {
  ({ t, req, ada, bea, cleo, dino, emil, outsider } = await appWithMembers(
    {
      ada: { username: 'ada_live', displayName: 'Ada Lovelace' },
      bea: { username: 'bea_live', displayName: 'Bea Bianchi' },
      cleo: { username: 'cleo_live', displayName: 'Cleo Conti' },
      dino: { username: 'dino_live', displayName: 'Dino Dini' },
      emil: { username: 'emil_live', displayName: 'Emil Evans' },
      outsider: { username: 'otto_live', displayName: 'Otto Outsider' },
    },
    { deps: { realtime: rt.realtime, now: () => new Date(clock) } },
  ));
  await req('PATCH', '/api/me', bea, { preferredLanguage: 'it' });
  await req('PATCH', '/api/me', emil, { preferredLanguage: 'en' });
  await befriend(t, ada, bea, cleo);
}, SIGN_UP_TIMEOUT);

const sorted = (...members: Member[]) => members.map((m) => m.id).sort();

async function directRoom(a: Member, b: Member): Promise<string> {
  return (await req('POST', '/api/chats/direct', a, { userId: b.id })).json().room.id;
}

async function send(who: Member, roomId: string, content: string) {
  const res = await req('POST', `/api/chats/rooms/${roomId}/messages`, who, { content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().message as { id: string };
}

const mailTo = (member: Member) =>
  t.database.query<{ subject: string; text: string; html: string }>(
    // Only chat e-mails (sign-up sent a confirmation too).
    `select subject, text, html from mail_outbox where "to" = $1 and text like '%/chats?room=%'
     order by id`,
    [member.email],
  );
const settle = () => new Promise((r) => setTimeout(r, 400));

describe('live events', () => {
  it('tell both members of a new direct room, and every participant of a new message', async () => {
    rt.clear();
    const room = await directRoom(ada, bea);
    expect(rt.toUsers).toEqual([
      { userIds: sorted(ada, bea), event: { type: 'chat.room', roomId: room } },
    ]);
    rt.clear();
    const message = await send(ada, room, 'Ciao!');
    expect(rt.toUsers).toHaveLength(1);
    expect(rt.toUsers[0].userIds).toEqual(sorted(ada, bea));
    expect(rt.toUsers[0].event).toMatchObject({
      type: 'chat.message',
      roomId: room,
      message: { id: message.id, content: 'Ciao!', senderId: ada.id },
    });

    // Too large for the cross-process limit: the event names the room and clients fetch ?after=.
    rt.clear();
    await send(bea, room, 'è'.repeat(4000));
    expect(rt.toUsers[0].event).toEqual({ type: 'chat.message', roomId: room });

    rt.clear();
    const refused = await req('POST', `/api/chats/rooms/${room}/messages`, outsider, {
      content: 'psst',
    });
    expect(refused.statusCode).toBe(403);
    expect(rt.toUsers).toEqual([]);
  });

  it('announce edits, deletions and read marks to the room', async () => {
    const room = await directRoom(ada, bea);
    const message = await send(ada, room, 'Prima');
    rt.clear();
    await req('PATCH', `/api/chats/rooms/${room}/messages/${message.id}`, ada, { content: 'Dopo' });
    await req('DELETE', `/api/chats/rooms/${room}/messages/${message.id}`, ada);
    const updated = { type: 'chat.message.updated', roomId: room, messageId: message.id };
    expect(rt.toUsers).toEqual([
      { userIds: sorted(ada, bea), event: updated },
      { userIds: sorted(ada, bea), event: updated },
    ]);
    rt.clear();
    await req('POST', `/api/chats/rooms/${room}/read`, bea);
    expect(rt.toUsers).toHaveLength(2);
    expect(rt.toUsers[1]).toEqual({
      userIds: [bea.id],
      event: { type: 'chat.room', roomId: room },
    });
    expect(rt.toUsers[0]).toMatchObject({
      userIds: sorted(ada, bea),
      event: { type: 'chat.read', roomId: room, userId: bea.id },
    });
    expect(Date.parse(String(rt.toUsers[0].event.at))).not.toBeNaN();
  });

  it('tell everyone when a member leaves a group, and the rest what was said', async () => {
    const room = (
      await req('POST', '/api/chats/rooms', ada, {
        name: 'Gruppo',
        participantIds: [bea.id, cleo.id],
      })
    ).json().room.id;
    expect(rt.toUsers.at(-1)).toEqual({
      userIds: sorted(ada, bea, cleo),
      event: { type: 'chat.room', roomId: room },
    });
    rt.clear();
    await req('DELETE', `/api/chats/rooms/${room}/participants/me`, cleo);
    // No more typing from that room reaches the member who left.
    expect(rt.leftTopics).toEqual([{ userIds: [cleo.id], topic: `room:${room}` }]);
    expect(rt.toUsers[0]).toEqual({
      userIds: sorted(ada, bea, cleo),
      event: { type: 'chat.room', roomId: room },
    });
    expect(rt.toUsers[1]).toMatchObject({
      userIds: sorted(ada, bea),
      event: { type: 'chat.message', roomId: room, message: { type: 'system', content: 'left' } },
    });
  });

  it('announce every offer status change in each room it touches', async () => {
    const listing = await createListing(t, dino, { title: 'La luna e i falò', price: 15 });
    const beaRoom = (
      await req('POST', '/api/chats/contact', bea, { listingId: listing.id, content: 'Ciao' })
    ).json().roomId;
    const emilRoom = (
      await req('POST', '/api/chats/contact', emil, { listingId: listing.id, content: 'Hello' })
    ).json().roomId;
    const beaOffer = (
      await req('POST', `/api/chats/rooms/${beaRoom}/offers`, bea, {
        listingId: listing.id,
        amount: 12,
      })
    ).json().message;
    const emilOffer = (
      await req('POST', `/api/chats/rooms/${emilRoom}/offers`, emil, {
        listingId: listing.id,
        amount: 10,
      })
    ).json().message;
    expect(rt.toUsers.at(-1)).toMatchObject({
      userIds: sorted(dino, emil),
      event: { type: 'chat.message', message: { id: emilOffer.id, type: 'offer' } },
    });
    rt.clear();
    const res = await req('POST', `/api/chats/offers/${beaOffer.offer.id}/accept`, dino);
    expect(res.statusCode).toBe(200);
    expect(rt.toUsers).toEqual(
      expect.arrayContaining([
        {
          userIds: sorted(dino, bea),
          event: { type: 'chat.message.updated', roomId: beaRoom, messageId: beaOffer.id },
        },
        {
          userIds: sorted(dino, emil),
          event: { type: 'chat.message.updated', roomId: emilRoom, messageId: emilOffer.id },
        },
        // Both conversations' listing cards turn reserved.
        {
          userIds: sorted(dino, bea, emil),
          event: { type: 'chat.listing', listingId: listing.id, status: 'reserved' },
        },
        // The deal opens in the accepted offer's conversation only (issue 22).
        {
          userIds: sorted(dino, bea),
          event: expect.objectContaining({
            type: 'chat.message',
            message: expect.objectContaining({
              roomId: beaRoom,
              type: 'deal',
              content: 'deal.opened',
              deal: expect.objectContaining({ method: 'hand', status: 'open' }),
            }),
          }),
        },
      ]),
    );
    expect(rt.toUsers).toHaveLength(4);
  });
});

describe('topics, typing and presence', () => {
  it('lets only participants subscribe to room:<id>', async () => {
    const room = await directRoom(ada, bea);
    const authorize = rt.topics.get('room')!;
    expect(await authorize(ada.id, room)).toBe(true);
    expect(await authorize(outsider.id, room)).toBe(false);
    expect(await authorize(ada.id, '55555555-5555-4555-8555-555555555555')).toBe(false);
    expect(await authorize(ada.id, 'not-a-room')).toBe(false);
  });

  it('relays typing to the room topic at most once every 2 s per member, participants only', async () => {
    const room = await directRoom(ada, bea);
    rt.clear();
    await rt.frame(ada.id, { type: 'chat.typing', roomId: room });
    await rt.frame(ada.id, { type: 'chat.typing', roomId: room });
    await rt.frame(bea.id, { type: 'chat.typing', roomId: room });
    expect(rt.toTopic).toEqual([
      {
        topic: `room:${room}`,
        event: { type: 'chat.typing', roomId: room, userId: ada.id, displayName: 'Ada Lovelace' },
        options: { exceptUserIds: [ada.id] },
      },
      {
        topic: `room:${room}`,
        event: { type: 'chat.typing', roomId: room, userId: bea.id, displayName: 'Bea Bianchi' },
        options: { exceptUserIds: [bea.id] },
      },
    ]);
    clock += 2001;
    await rt.frame(ada.id, { type: 'chat.typing', roomId: room });
    expect(rt.toTopic).toHaveLength(3);

    const replies = await rt.frame(outsider.id, { type: 'chat.typing', roomId: room });
    expect(replies).toEqual([{ type: 'error', status: 403, roomId: room }]);
    await rt.frame(ada.id, { type: 'chat.typing', roomId: 42 });
    expect(rt.toTopic).toHaveLength(3);
  });

  it('tells the members who share a room with someone when they go offline, with last seen', async () => {
    const seen = '2026-03-02T08:55:00.000Z';
    await t.database.query('update users set last_seen_at = $2 where id = $1', [emil.id, seen]);
    rt.clear();
    await rt.presenceChanged(emil.id, false);
    expect(rt.toUsers).toEqual([
      {
        userIds: sorted(dino),
        event: { type: 'presence', userId: emil.id, online: false, lastSeenAt: seen },
      },
    ]);
    // Rooms show who is online now and when the others were last seen.
    rt.online.add(dino.id);
    const room = (await req('GET', '/api/chats/rooms', emil)).json().items[0];
    expect(room.participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: dino.id, online: true }),
        expect.objectContaining({ id: emil.id, online: false, lastSeenAt: seen }),
      ]),
    );
    rt.online.clear();
  });
});

describe('e-mail for missed messages', () => {
  it('goes to an offline member once per room an hour, in their language, with a link to the room', async () => {
    const fresh = await createMember(t, { displayName: 'Flavia Fresca' });
    await req('PATCH', '/api/me', fresh, { preferredLanguage: 'it' });
    const room = await directRoom(ada, fresh);
    const before = Date.now();
    await send(ada, room, 'Ti va di scambiare qualche giallo?');
    // The message is answered at once; the e-mail follows.
    expect(Date.now() - before).toBeLessThan(2000);
    const [mail] = await eventually(async () => {
      const mails = await mailTo(fresh);
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(mail.subject).toBe('Nuovo messaggio da Ada Lovelace su Scaffale');
    expect(mail.text).toContain('Ti va di scambiare qualche giallo?');
    expect(mail.text).toContain(`${t.config.publicUrl}/profile/${fresh.id}/chats?room=${room}`);
    expect(mail.html).toContain(`/profile/${fresh.id}/chats?room=${room}`);

    await send(ada, room, 'Secondo messaggio');
    await send(ada, room, 'Terzo messaggio');
    await settle();
    expect(await mailTo(fresh)).toHaveLength(1);
    // Never to the sender.
    expect((await mailTo(ada)).filter((m) => m.text.includes(room))).toHaveLength(0);

    clock += 61 * 60 * 1000;
    await send(ada, room, 'Un’ora dopo');
    await eventually(async () => expect(await mailTo(fresh)).toHaveLength(2));
  });

  it('never goes to a member who is online or who turned e-mail notifications off', async () => {
    const quiet = await createMember(t, { displayName: 'Quinto Quieto' });
    const live = await createMember(t, { displayName: 'Lia Live' });
    const away = await createMember(t, { displayName: 'Walter Away' });
    await req('PATCH', '/api/me', away, { preferredLanguage: 'en' });
    const off = await req('PATCH', '/api/me', quiet, { emailNotifications: false });
    expect(off.json().emailNotifications).toBe(false);
    await befriend(t, ada, quiet, live, away);
    rt.online.add(live.id);
    const room = (
      await req('POST', '/api/chats/rooms', ada, {
        name: 'Letture',
        participantIds: [quiet.id, live.id, away.id],
      })
    ).json().room.id;
    await send(ada, room, 'Chi viene sabato?');
    const [mail] = await eventually(async () => {
      const mails = await mailTo(away);
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(mail.subject).toBe('New message from Ada Lovelace on Scaffale');
    expect(mail.text).toContain('Ada Lovelace wrote in Letture:');
    // The same job looked at everyone: those two were skipped.
    expect(await mailTo(quiet)).toHaveLength(0);
    expect(await mailTo(live)).toHaveLength(0);
    rt.online.clear();
  });
});
