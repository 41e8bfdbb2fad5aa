import { describe, expect, it } from 'vitest';
import { createMember, type Member } from '../../test/members';
import { createListing } from '../../test/listings';
import { notificationText } from '../../platform/notifications';
import { t, req, admin, seller, report, outboxFor, useFixture } from './routes.fixture';

useFixture();

const MODERATOR = 'Ada Admin';

async function reporter(name: string, lang: 'it' | 'en'): Promise<Member> {
  const m = await createMember(t, { displayName: name });
  await t.database.query('update users set preferred_language = $2 where id = $1', [m.id, lang]);
  return m;
}

/** The member's report-outcome notices, as the bell lists them. */
async function notices(who: Member) {
  const page = (await req('GET', '/api/notifications', who)).json();
  return (
    page.items as {
      type: string;
      actor: unknown;
      actorCount: number;
      data: Record<string, string | number | null>;
      link: string;
    }[]
  ).filter((n) => n.type === 'moderation.report');
}

/** The outcome e-mails in the outbox (sign-up wrote the member one already). */
const outcomeMail = async (email: string) =>
  (await outboxFor(email)).filter((m) => /^(Your report|La tua segnalazione)/.test(m.subject));

const words = (lang: 'it' | 'en', n: Awaited<ReturnType<typeof notices>>[number]) =>
  notificationText(lang, { type: n.type, actorName: null, actorCount: n.actorCount, data: n.data });

describe('the reporter hears the outcome', () => {
  it('removed: each reporter in their language, by the bell and by e-mail, never naming the moderator', async () => {
    const listing = await createListing(t, seller, { title: 'Copia piratata' });
    const title = 'Copia piratata — Italo Calvino';
    const rita = await reporter('Rita Segnalatrice', 'it');
    const eric = await reporter('Eric Reporter', 'en');
    const bystander = await reporter('Bruno Bystander', 'en');
    expect(
      (await report(rita, { kind: 'listing', id: listing.id, reason: 'illegal' })).statusCode,
    ).toBe(201);
    expect(
      (await report(eric, { kind: 'listing', id: listing.id, reason: 'scam' })).statusCode,
    ).toBe(201);
    const visitor = { name: 'Vanessa Visitor', email: 'vanessa.outcome@example.com' };
    const byVisitor = await report(
      undefined,
      { kind: 'listing', id: listing.id, reason: 'illegal', ...visitor },
      'en',
    );
    expect(byVisitor.statusCode, byVisitor.body).toBe(201);
    const italianVisitor = { name: 'Vittoria', email: 'vittoria.outcome@example.com' };
    const byItalian = await report(
      undefined,
      { kind: 'listing', id: listing.id, reason: 'illegal', ...italianVisitor },
      'it',
    );
    expect(byItalian.statusCode, byItalian.body).toBe(201);

    // A member who is not a moderator cannot decide: 404, and nobody is told anything.
    const denied = await req('POST', `/api/admin/items/listing/${listing.id}/hide`, eric, {
      reason: 'Mine',
    });
    expect(denied.statusCode).toBe(404);
    expect(await notices(eric)).toHaveLength(0);
    expect(await outcomeMail(eric.email)).toHaveLength(0);

    const hidden = await req('POST', `/api/admin/items/listing/${listing.id}/hide`, admin, {
      reason: 'Pirated copies are illegal to sell.',
    });
    expect(hidden.statusCode, hidden.body).toBe(200);

    const [itNotice] = await notices(rita);
    expect(itNotice).toMatchObject({
      actor: null,
      data: { context: 'removed', kind: 'listing', title },
      link: `/profile/${rita.id}/notifications`,
    });
    expect(words('it', itNotice)).toBe(
      `I moderatori hanno esaminato la tua segnalazione su «${title}» e hanno rimosso il contenuto. Grazie per avercelo segnalato.`,
    );
    const [enNotice] = await notices(eric);
    expect(words('en', enNotice)).toBe(
      `The moderators reviewed your report about “${title}” and removed it. Thank you for telling us.`,
    );

    const itMail = await outcomeMail(rita.email);
    expect(itMail).toHaveLength(1);
    expect(itMail[0].subject).toBe('La tua segnalazione: il contenuto è stato rimosso (annuncio)');
    expect(itMail[0].text).toContain(`«${title}»`);
    const enMail = await outcomeMail(eric.email);
    expect(enMail).toHaveLength(1);
    expect(enMail[0].subject).toBe('Your report: the listing was removed');
    const visitorMail = await outcomeMail(visitor.email);
    expect(visitorMail).toHaveLength(1);
    expect(visitorMail[0].subject).toBe('Your report: the listing was removed');
    expect(visitorMail[0].text).toContain('Vanessa Visitor');
    const italianMail = await outcomeMail(italianVisitor.email);
    expect(italianMail.map((m) => m.subject)).toEqual([
      'La tua segnalazione: il contenuto è stato rimosso (annuncio)',
    ]);
    // Nothing names the moderator, nor who else reported; a removed page is not linked.
    for (const mail of [...itMail, ...enMail, ...visitorMail, ...italianMail]) {
      expect(mail.text).not.toContain(MODERATOR);
      expect(mail.text).not.toContain(admin.email);
      expect(mail.text).not.toContain(`/library/book/${listing.id}`);
    }
    expect(enMail[0].text).not.toContain('Rita');
    expect(JSON.stringify([itNotice, enNotice])).not.toContain(MODERATOR);

    // The bystander hears nothing; the author hears the decision, not who reported.
    expect(await notices(bystander)).toHaveLength(0);
    expect(await outcomeMail(bystander.email)).toHaveLength(0);
    expect(await notices(seller)).toHaveLength(0);
    const authorMail = (await outboxFor(seller.email))[0];
    for (const who of ['Rita', 'Eric', 'Vanessa', visitor.email, rita.email, eric.email])
      expect(authorMail.text).not.toContain(who);
    const authorBell = JSON.stringify((await req('GET', '/api/notifications', seller)).json());
    for (const who of ['Rita', 'Eric', 'Vanessa']) expect(authorBell).not.toContain(who);
  });

  it('the removal e-mail to the author links to the appeal path, not to the removed page', async () => {
    const listing = await createListing(t, seller, { title: 'Da togliere' });
    const rita = await reporter('Rita Due', 'it');
    await report(rita, { kind: 'listing', id: listing.id, reason: 'spam' });
    await req('POST', `/api/admin/items/listing/${listing.id}/hide`, admin, { reason: 'Spam.' });
    const [mail] = await outboxFor(seller.email);
    expect(mail.text).toContain(`${t.config.publicUrl}/contact`);
    expect(mail.text).not.toContain(`/library/book/${listing.id}`);
    expect(mail.text).toMatch(/pagina dei contatti|contact page/);
  });

  it('dismissed as unfounded: reviewed and kept, told once though the member reported twice', async () => {
    const listing = await createListing(t, seller, { title: 'Tutto in regola' });
    const title = 'Tutto in regola — Italo Calvino';
    const eric = await reporter('Eric Twice', 'en');
    // Once as a visitor, before signing up, under the same address; once as a member.
    const asVisitor = await report(undefined, {
      kind: 'listing',
      id: listing.id,
      reason: 'illegal',
      name: 'Eric',
      email: eric.email.toUpperCase(),
    });
    expect(asVisitor.statusCode, asVisitor.body).toBe(201);
    expect(
      (await report(eric, { kind: 'listing', id: listing.id, reason: 'scam' })).statusCode,
    ).toBe(201);
    const res = await req('POST', `/api/admin/items/listing/${listing.id}/dismiss`, admin, {
      reason: 'Nothing against the rules.',
    });
    expect(res.statusCode).toBe(200);
    const told = await notices(eric);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      data: { context: 'kept' },
      link: `/library/book/${listing.id}`,
    });
    expect(words('en', told[0])).toBe(
      `The moderators reviewed your report about “${title}” and kept it: it does not break the rules.`,
    );
    expect(words('it', told[0])).toBe(
      `I moderatori hanno esaminato la tua segnalazione su «${title}» e hanno lasciato visibile il contenuto: non viola le regole.`,
    );
    const mail = await outcomeMail(eric.email);
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe('Your report: the listing was reviewed and kept');
    expect(mail[0].text).toContain(`${t.config.publicUrl}/library/book/${listing.id}`);
    expect(mail[0].text).not.toContain(MODERATOR);
    // Sent at once: the hourly digest does not send it again.
    const pending = await t.database.query<{ email_pending: boolean }>(
      `select email_pending from notifications where recipient_id = $1 and type = 'moderation.report'`,
      [eric.id],
    );
    expect(pending).toEqual([{ email_pending: false }]);
  });

  it("follows the member's switches: no e-mail when off, no notice in the bell when off", async () => {
    const listing = await createListing(t, seller, { title: 'Interruttori' });
    const quiet = await reporter('Quinto Quiet', 'en');
    const noBell = await reporter('Nora NoBell', 'it');
    const off = await req('PATCH', '/api/notifications/settings', quiet, {
      'moderation.report': { email: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    await req('PATCH', '/api/notifications/settings', noBell, {
      'moderation.report': { inApp: false },
    });
    await report(quiet, { kind: 'listing', id: listing.id, reason: 'spam' });
    await report(noBell, { kind: 'listing', id: listing.id, reason: 'spam' });
    await req('POST', `/api/admin/items/listing/${listing.id}/dismiss`, admin, { reason: 'Fine.' });
    expect(await notices(quiet)).toHaveLength(1);
    expect(await outcomeMail(quiet.email)).toHaveLength(0);
    expect(await notices(noBell)).toHaveLength(0);
    expect((await outcomeMail(noBell.email))[0].subject).toMatch(/resta visibile/);
  });

  it('a profile hidden (its member suspended) reads as removed to its reporters', async () => {
    const troll = await createMember(t, { displayName: 'Tino Troll' });
    const eric = await reporter('Eric Profile', 'en');
    await report(eric, { kind: 'profile', id: troll.id, reason: 'offensive' });
    const res = await req('POST', `/api/admin/items/profile/${troll.id}/hide`, admin, {
      reason: 'Abuse.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [notice] = await notices(eric);
    expect(words('en', notice)).toContain('“Tino Troll” and removed it');
    expect((await outcomeMail(eric.email))[0].subject).toBe('Your report: the profile was removed');
  });
});
