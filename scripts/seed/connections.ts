import type { SeedStep } from './types';

/** [requester, addressee, days since the request, days since it was accepted or null if pending] */
export const demoConnections: Array<[string, string, number, number | null]> = [
  ['giulia_legge', 'marco_rossi', 300, 299],
  ['giulia_legge', 'fra_esposito', 280, 278],
  ['emily_reads', 'giulia_legge', 250, 249],
  ['marco_rossi', 'lucaferrari', 200, 190],
  ['fra_esposito', 'chiara_romano', 150, 149],
  // Francesca sold Emily a book (seed/listings.ts): their friendship counts one interaction.
  ['fra_esposito', 'emily_reads', 140, 139],
  ['emily_reads', 'jamesobrien', 180, 175],
  ['jamesobrien', 'olivia_b', 50, 48],
  ['lucaferrari', 'ale_colombo', 120, 118],
  ['sofia_ricci', 'davidegreco', 60, 59],
  // Pending both ways: Giulia has two to answer and one waiting for Sofia.
  ['dan_hughes', 'giulia_legge', 3, null],
  ['olivia_b', 'giulia_legge', 10, null],
  ['giulia_legge', 'sofia_ricci', 5, null],
  ['marco_rossi', 'emily_reads', 7, null],
  ['chiara_romano', 'dan_hughes', 2, null],
];

/** Friendships among the demo members and a few pending requests; a pair already linked is kept. */
export const seedConnections: SeedStep = async (ctx) => {
  const byUsername = new Map(ctx.members.map((m) => [m.username, m.id]));
  let created = 0;
  for (const [from, to, requestedDaysAgo, acceptedDaysAgo] of demoConnections) {
    const requester = byUsername.get(from);
    const addressee = byUsername.get(to);
    if (!requester || !addressee) continue;
    const rows = await ctx.database.query(
      `insert into connections (requester_id, addressee_id, status, created_at, updated_at)
       values ($1, $2, $3, now() - make_interval(days => $4::int), now() - make_interval(days => $5::int))
       on conflict do nothing returning id`,
      [
        requester,
        addressee,
        acceptedDaysAgo === null ? 'pending' : 'accepted',
        requestedDaysAgo,
        acceptedDaysAgo ?? requestedDaysAgo,
      ],
    );
    created += rows.length;
  }
  ctx.log(`connections: ${created} created, ${demoConnections.length - created} already there`);
};
