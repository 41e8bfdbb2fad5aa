import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { createListing } from '../../../test/listings';
import { expectRefusal, type Member } from '../../../test/members';
import { saleThroughChat } from '../../../test/deals';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../../test/harness';

// Issue 33 item 2: the pair's one direct room may be about several books over time. A buyer who
// bought a book from a seller contacts her again about another: the room follows that book and the
// buyer may make an offer on it.

let t: TestApp, req: Requester;
let giulia: Member, bruno: Member, rita: Member;

beforeAll(async () => {
  ({ t, req, giulia, bruno, rita } = await appWithMembers({
    giulia: { username: 'giulia_sells', displayName: 'Giulia' },
    bruno: { username: 'bruno_again', displayName: 'Bruno' },
    rita: { username: 'rita_third', displayName: 'Rita' },
  }));
}, SIGN_UP_TIMEOUT);

async function contact(who: Member, listingId: string, content = 'E questo?') {
  const res = await req('POST', '/api/chats/contact', who, { listingId, content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { roomId: string };
}

const roomListing = async (who: Member, roomId: string) => {
  const res = await req('GET', `/api/chats/rooms/${roomId}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().listing as { id: string; status: string } | null;
};

const offer = (who: Member, roomId: string, listingId: string, amount = 7) =>
  req('POST', `/api/chats/rooms/${roomId}/offers`, who, { listingId, amount });

describe('a second book from the same seller', () => {
  it('moves the room to the book contacted about; an offer on it is 201', async () => {
    const first = await saleThroughChat(t, giulia, bruno, {
      title: 'Le città invisibili',
      content: 'Lo vorrei',
    });
    expect(await roomListing(bruno, first.roomId)).toMatchObject({
      id: first.listingId,
      status: 'sold',
    });
    const second = await createListing(t, giulia, { title: 'Palomar', price: 9 });

    const { roomId } = await contact(bruno, second.id);
    // The pair's one room, now about the second book for both members, in the list as well.
    expect(roomId).toBe(first.roomId);
    for (const who of [bruno, giulia]) {
      expect(await roomListing(who, roomId)).toMatchObject({ id: second.id, status: 'available' });
      const rooms = (await req('GET', '/api/chats/rooms', who)).json().items;
      expect(rooms.find((r: { id: string }) => r.id === roomId).listing.id).toBe(second.id);
    }
    const made = await offer(bruno, roomId, second.id);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().message.offer).toMatchObject({
      listingId: second.id,
      buyerId: bruno.id,
      sellerId: giulia.id,
      status: 'pending',
    });
    // The sold book takes no offer (409), in both languages.
    await expectRefusal(
      t,
      [
        'POST',
        `/api/chats/rooms/${roomId}/offers`,
        bruno,
        { listingId: first.listingId, amount: 5 },
      ],
      {
        status: 409,
        en: 'This book is no longer available',
        it: 'Questo libro non è più disponibile',
      },
    );
  });

  it('takes an offer on any available book of the seller in the room, without moving it', async () => {
    // Decision: the seller is in the room and the offer's message shows its book, so an offer on
    // a book of hers not yet discussed there is as clear as one after a contact card (201). A
    // third member's book, whose seller is not in the room, stays refused (400).
    const about = await createListing(t, giulia, { title: 'Il sentiero dei nidi di ragno' });
    const { roomId } = await contact(bruno, about.id);
    const untold = await createListing(t, giulia, { title: 'Lezioni americane', price: 11 });
    const made = await offer(bruno, roomId, untold.id);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().message).toMatchObject({ type: 'offer', listing: { id: untold.id } });
    expect((await roomListing(giulia, roomId))?.id).toBe(about.id);
    const ritas = await createListing(t, rita, { title: 'Se una notte d’inverno' });
    const foreign = await offer(bruno, roomId, ritas.id);
    expect(foreign.statusCode, foreign.body).toBe(400);
  });

  it('is moved only by its two members: a third one contacting the seller gets a room of her own', async () => {
    const book = await createListing(t, giulia, { title: 'Il cavaliere inesistente' });
    const { roomId } = await contact(bruno, book.id);
    const another = await createListing(t, giulia, { title: 'Ti con zero' });
    const ritaRoom = await contact(rita, another.id);
    expect(ritaRoom.roomId).not.toBe(roomId);
    expect((await roomListing(bruno, roomId))?.id).toBe(book.id);
    // Nor does she reach the pair's room, or offer in it: 403, nothing stored.
    expect((await req('GET', `/api/chats/rooms/${roomId}`, rita)).statusCode).toBe(403);
    const refused = await offer(rita, roomId, another.id);
    expect(refused.statusCode, refused.body).toBe(403);
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from offers where room_id = $1 and buyer_id = $2',
      [roomId, rita.id],
    );
    expect(n).toBe(0);
  });

  it('two contacts at once about two books: one room, about one of them, both cards in it', async () => {
    const [a, b] = [
      await createListing(t, giulia, { title: 'Cosmicomiche' }),
      await createListing(t, giulia, { title: 'Marcovaldo' }),
    ];
    const [one, two] = await Promise.all([contact(bruno, a.id), contact(bruno, b.id)]);
    expect(one.roomId).toBe(two.roomId);
    expect([a.id, b.id]).toContain((await roomListing(giulia, one.roomId))?.id);
    const page = (await req('GET', `/api/chats/rooms/${one.roomId}/messages`, giulia)).json();
    const cards = page.items
      .filter((m: { type: string }) => m.type === 'listing')
      .map((m: { listing: { id: string } }) => m.listing.id);
    expect(cards).toEqual(expect.arrayContaining([a.id, b.id]));
  });
});
