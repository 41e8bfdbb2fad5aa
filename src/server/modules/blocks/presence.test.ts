import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import { eventually, mustOpen, wait, type TestSocket } from '../../platform/realtime/testing';
import { createListing } from '../../test/listings';
import type { Member } from '../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

/**
 * After a block the blocked member no longer sees the blocker's presence, over real sockets:
 * no presence events, and the conversation shows them neither online nor last seen. Unblocking
 * gives it back. A member with no block keeps seeing it.
 */
let t: TestApp, req: Requester;
let blocker: Member, blocked: Member, other: Member;
let base: string;
let roomWithBlocked: string;
const sockets: TestSocket[] = [];

async function tab(member: Member) {
  const socket = await mustOpen(base, { cookie: member.cookie, origin: t.config.publicUrl });
  sockets.push(socket);
  return socket;
}

async function close(socket: TestSocket) {
  socket.ws.close();
  await socket.closed;
}

const aboutBlocker = (f: Record<string, unknown>) =>
  f.type === 'presence' && f.userId === blocker.id;

/** The blocker as `viewer`'s copy of their conversation shows them. */
async function blockerSeenBy(viewer: Member, roomId: string) {
  const res = await req('GET', `/api/chats/rooms/${roomId}`, viewer);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().participants.find((p: { id: string }) => p.id === blocker.id) as {
    online: boolean;
    lastSeenAt: string | null;
  };
}

async function contact(buyer: Member, title: string) {
  const listing = await createListing(t, blocker, { title });
  const res = await req('POST', '/api/chats/contact', buyer, {
    listingId: listing.id,
    content: 'Ciao, è disponibile?',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().roomId as string;
}

beforeAll(async () => {
  ({ t, req, blocker, blocked, other } = await appWithMembers({
    blocker: { displayName: 'Bianca Blocker' },
    blocked: { displayName: 'Bruno Blocked' },
    other: { displayName: 'Olga Other' },
  }));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  roomWithBlocked = await contact(blocked, 'Il nome della rosa');
  await contact(other, 'Il pendolo di Foucault');
}, SIGN_UP_TIMEOUT);

afterAll(async () => {
  for (const s of sockets) s.ws.close();
  await Promise.all(sockets.map((s) => s.closed));
});

describe('presence after a block', () => {
  it('is hidden from the blocked member (events and queries), kept for others, back on unblock', async () => {
    // Before: the blocked-to-be member sees the blocker come online.
    const blockedTab = await tab(blocked);
    const otherTab = await tab(other);
    const blockerTab = await tab(blocker);
    expect(await blockedTab.next(aboutBlocker)).toMatchObject({ online: true });
    expect(await otherTab.next(aboutBlocker)).toMatchObject({ online: true });

    const res = await req('PUT', `/api/blocks/${blocked.id}`, blocker);
    expect(res.statusCode, res.body).toBe(200);
    // The block itself takes the blocker out of sight at once: offline, never seen.
    expect(await blockedTab.next(aboutBlocker)).toEqual({
      type: 'presence',
      userId: blocker.id,
      online: false,
      lastSeenAt: null,
    });
    expect(await blockerSeenBy(blocked, roomWithBlocked)).toMatchObject({
      online: false,
      lastSeenAt: null,
    });

    // The blocker goes offline and comes back: the other member hears it, the blocked one not.
    await close(blockerTab);
    expect(await otherTab.next(aboutBlocker)).toMatchObject({ online: false });
    await tab(blocker);
    expect(await otherTab.next(aboutBlocker)).toMatchObject({ online: true });
    await wait(300);
    expect(blockedTab.frames.filter(aboutBlocker).slice(1)).toEqual([
      { type: 'presence', userId: blocker.id, online: false, lastSeenAt: null },
    ]);
    expect(await blockerSeenBy(blocked, roomWithBlocked)).toMatchObject({
      online: false,
      lastSeenAt: null,
    });

    // Unblocking shows the blocker as they are again, live and in the conversation.
    expect((await req('DELETE', `/api/blocks/${blocked.id}`, blocker)).statusCode).toBe(200);
    expect(await blockedTab.next((f) => aboutBlocker(f) && f.online === true)).toMatchObject({
      online: true,
    });
    await eventually(async () => (await blockerSeenBy(blocked, roomWithBlocked)).online);
  });
});
