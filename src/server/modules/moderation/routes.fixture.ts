import { beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { befriend, requester, createMember, type Member } from '../../test/members';
import { grantAdmin } from './roles';

export let t: TestApp;
export let req: ReturnType<typeof requester>;
export let admin: Member;
export let seller: Member;
export let reader: Member;
export let other: Member;

export const reason = { reason: 'Violates the rules on spam (section 3).' };

export async function report(who: Member | undefined, body: object, lang = 'en') {
  return req('POST', '/api/reports', who, body, lang);
}

export async function outboxFor(email: string) {
  const rows = await t.database.query<{ subject: string; text: string }>(
    'select subject, text from mail_outbox where "to" = $1 order by id desc',
    [email],
  );
  return rows;
}

export async function directRoom(a: Member, b: Member, content: string) {
  await befriend(t, a, b);
  const room = await req('POST', '/api/chats/direct', a, { userId: b.id });
  expect(room.statusCode, room.body).toBeLessThan(300);
  const roomId = room.json().room.id as string;
  const sent = await req('POST', `/api/chats/rooms/${roomId}/messages`, a, { content });
  expect(sent.statusCode, sent.body).toBe(201);
  return { roomId, messageId: sent.json().message.id as string };
}

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(async () => {
    t = await createTestApp();
    req = requester(t);
    admin = await createMember(t, { displayName: 'Ada Admin' });
    seller = await createMember(t, { displayName: 'Sandro Seller', username: 'sandro_s' });
    reader = await createMember(t, { displayName: 'Rita Reader' });
    other = await createMember(t, { displayName: 'Otto Other' });
    expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
  }, 120_000);
}
