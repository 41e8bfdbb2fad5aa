/**
 * Demo conversations for `npm run seed:demo`: a buyer asking a seller about a listing and making
 * an offer, two direct chats and a reading group. Idempotent: a conversation whose room already
 * exists (the pair's direct room, or the group by name and creator) is left alone.
 */
import type { SeedContext, SeedStep } from './types';
import { directKey } from '../../src/server/modules/chats';
import { inTransaction } from '../../src/server/db/tx';

interface DemoLine {
  from: string;
  text?: string;
  /** A card of this member's listing (by title), as contacting a seller posts. */
  card?: { seller: string; title: string };
  /** An offer on the card's listing, still waiting for the seller's answer. */
  offer?: { seller: string; title: string; amount: number };
}

interface DemoConversation {
  members: string[];
  group?: string;
  /** Hours ago the conversation started; lines follow a few minutes apart. */
  hoursAgo: number;
  about?: { seller: string; title: string };
  lines: DemoLine[];
}

export const demoConversations: DemoConversation[] = [
  {
    members: ['marco_rossi', 'giulia_legge'],
    hoursAgo: 26,
    about: { seller: 'giulia_legge', title: 'Il nome della rosa' },
    lines: [
      { from: 'marco_rossi', card: { seller: 'giulia_legge', title: 'Il nome della rosa' } },
      {
        from: 'marco_rossi',
        text: 'Ciao Giulia! Il nome della rosa è ancora disponibile? Passo da Milano la settimana prossima.',
      },
      {
        from: 'giulia_legge',
        text: 'Ciao Marco, sì, è disponibile. Se vuoi te lo tengo da parte.',
      },
      { from: 'marco_rossi', text: 'Perfetto. Ti andrebbero 8 euro? Lo ritiro a mano.' },
      {
        from: 'marco_rossi',
        offer: { seller: 'giulia_legge', title: 'Il nome della rosa', amount: 8 },
      },
    ],
  },
  {
    members: ['emily_reads', 'jamesobrien'],
    hoursAgo: 50,
    lines: [
      { from: 'emily_reads', text: 'Hi James, did you finish the Hilary Mantel trilogy?' },
      {
        from: 'jamesobrien',
        text: 'Just the first two. The Mirror and the Light is next on my pile.',
      },
      { from: 'emily_reads', text: 'Tell me when you are done, I would love to borrow it.' },
    ],
  },
  {
    members: ['fra_esposito', 'lucaferrari'],
    hoursAgo: 5,
    lines: [
      {
        from: 'lucaferrari',
        text: 'Ciao Francesca, ti interessa uno scambio con Il sistema periodico?',
      },
      { from: 'fra_esposito', text: 'Volentieri! Avrei Gomorra in ottime condizioni.' },
      { from: 'lucaferrari', text: 'Affare fatto, ci sentiamo per la spedizione.' },
    ],
  },
  {
    members: ['giulia_legge', 'fra_esposito', 'chiara_romano'],
    group: 'Club del giallo',
    hoursAgo: 72,
    lines: [
      { from: 'giulia_legge', text: 'Benvenute nel club! Questo mese leggiamo Agatha Christie.' },
      { from: 'chiara_romano', text: 'Io parto da Dieci piccoli indiani.' },
      { from: 'fra_esposito', text: 'Ottima scelta. Ci vediamo in biblioteca venerdì?' },
      { from: 'giulia_legge', text: 'Venerdì alle 18, porto i biscotti.' },
    ],
  },
];

const MINUTE = 60 * 1000;

async function listingId(
  ctx: SeedContext,
  ids: Map<string, string>,
  l: { seller: string; title: string },
) {
  const [row] = await ctx.database.query<{ id: string; currency: string }>(
    'select id, currency from book_listings where user_id = $1 and title = $2 limit 1',
    [ids.get(l.seller), l.title],
  );
  return row ?? null;
}

export const seedChats: SeedStep = async (ctx) => {
  const ids = new Map(ctx.members.map((m) => [m.username, m.id]));
  let created = 0;
  for (const c of demoConversations) {
    const members = c.members.map((u) => ids.get(u));
    if (members.some((id) => !id)) continue;
    const [first, second] = members as string[];
    const key = c.group ? null : directKey(first, second);
    const [existing] = c.group
      ? await ctx.database.query(
          'select 1 from chat_rooms where is_group and name = $1 and created_by = $2',
          [c.group, first],
        )
      : await ctx.database.query('select 1 from chat_rooms where direct_key = $1', [key]);
    if (existing) continue;
    const about = c.about ? await listingId(ctx, ids, c.about) : null;
    const start = Date.now() - c.hoursAgo * 60 * MINUTE;
    const at = (i: number) => new Date(start + i * 7 * MINUTE);
    const lines: Array<DemoLine & { listing: { id: string; currency: string } | null }> = [];
    for (const line of c.lines) {
      const target = line.card ?? line.offer;
      lines.push({ ...line, listing: target ? await listingId(ctx, ids, target) : null });
    }
    await inTransaction(ctx.database, async (q) => {
      const [room] = await q<{ id: string }>(
        `insert into chat_rooms (name, is_group, created_by, direct_key, listing_id, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [
          c.group ?? null,
          Boolean(c.group),
          first,
          key,
          about?.id ?? null,
          at(0),
          at(lines.length - 1),
        ],
      );
      for (const id of members as string[]) {
        // Everyone has read up to their own last line; what came after is unread.
        const own = lines.map((l, i) => (ids.get(l.from) === id ? i : -1)).filter((i) => i >= 0);
        const readUpTo = own.length ? at(own[own.length - 1]) : at(0);
        await q(
          'insert into chat_participants (room_id, user_id, joined_at, last_read_at) values ($1, $2, $3, $4)',
          [room.id, id, at(0), readUpTo],
        );
      }
      for (const [i, line] of lines.entries()) {
        const sender = ids.get(line.from)!;
        let offerId: string | null = null;
        if (line.offer && line.listing) {
          [{ id: offerId }] = await q<{ id: string }>(
            `insert into offers (listing_id, buyer_id, seller_id, room_id, amount, currency, created_at)
             values ($1, $2, $3, $4, $5, $6, $7) returning id`,
            [
              line.listing.id,
              sender,
              ids.get(line.offer.seller),
              room.id,
              line.offer.amount,
              line.listing.currency,
              at(i),
            ],
          );
        }
        if ((line.card || line.offer) && !line.listing) continue;
        await q(
          `insert into chat_messages (room_id, sender_id, type, content, listing_id, offer_id, created_at)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [
            room.id,
            sender,
            line.offer ? 'offer' : line.card ? 'listing' : 'text',
            line.text ?? '',
            line.listing?.id ?? null,
            offerId,
            at(i),
          ],
        );
      }
    });
    created++;
  }
  ctx.log(
    `chats: ${created} conversations created, ${demoConversations.length - created} already there`,
  );
};
