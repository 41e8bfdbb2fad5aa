import { describe, expect, it } from 'vitest';
import { createMember, type Member } from '../../test/members';
import { createListing } from '../../test/listings';
import { t, req, admin, reason, report, outboxFor, useFixture } from './routes.fixture';

useFixture();

/** The member's report-outcome notices, as the bell lists them. */
async function outcomes(who: Member) {
  const page = (await req('GET', '/api/notifications', who)).json();
  return (page.items as { type: string; data: Record<string, unknown> }[]).filter(
    (n) => n.type === 'moderation.report',
  );
}

const openReports = async (kind: string, id: string) =>
  (
    await t.database.query<{ n: number }>(
      `select count(*)::int as n from reports where kind = $1 and item_id = $2 and status = 'open'`,
      [kind, id],
    )
  )[0].n;

describe('suspending a member from the members list', () => {
  it('decides the open reports about their content; reporters hear it was removed', async () => {
    const bad = await createMember(t, { displayName: 'Tino Truffa' });
    const rita = await createMember(t, { displayName: 'Rita Reporter' });
    const bystander = await createMember(t, { displayName: 'Bea Bystander' });
    const other = await createMember(t, { displayName: 'Olga Other' });
    const listing = await createListing(t, bad, { title: 'Falso autografo' });
    const kept = await createListing(t, other, { title: 'Libro onesto' });
    expect(
      (await report(rita, { kind: 'listing', id: listing.id, reason: 'scam' })).statusCode,
    ).toBe(201);
    expect((await report(rita, { kind: 'profile', id: bad.id, reason: 'scam' })).statusCode).toBe(
      201,
    );
    expect((await report(rita, { kind: 'listing', id: kept.id, reason: 'spam' })).statusCode).toBe(
      201,
    );

    // Not an admin: 404, nothing decided.
    const denied = await req('POST', `/api/admin/members/${bad.id}/suspend`, bystander, reason);
    expect(denied.statusCode).toBe(404);
    expect(await openReports('listing', listing.id)).toBe(1);

    const res = await req('POST', `/api/admin/members/${bad.id}/suspend`, admin, reason);
    expect(res.statusCode, res.body).toBe(200);
    expect(await openReports('listing', listing.id)).toBe(0);
    expect(await openReports('profile', bad.id)).toBe(0);
    // Someone else's reported listing still waits for its own decision.
    expect(await openReports('listing', kept.id)).toBe(1);

    const told = await outcomes(rita);
    expect(told.map((n) => [n.data.kind, n.data.context]).sort()).toEqual([
      ['listing', 'removed'],
      ['profile', 'removed'],
    ]);
    const mails = (await outboxFor(rita.email)).filter((m) =>
      /^(Your report|La tua segnalazione)/.test(m.subject),
    );
    expect(mails).toHaveLength(2);
    for (const m of mails) expect(m.text).not.toContain('Ada Admin');
    expect(await outcomes(bystander)).toEqual([]);

    // The queue no longer lists the suspended member's items.
    const queue = (await req('GET', '/api/admin/reports', admin)).json();
    const ids = (queue.items as { itemId: string }[]).map((i) => i.itemId);
    expect(ids).not.toContain(listing.id);
    expect(ids).toContain(kept.id);
  });
});
