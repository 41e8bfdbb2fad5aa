import { beforeAll, describe, expect, it } from 'vitest';
import { notificationText } from '../../platform/notifications';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, randomClientIp, type Member } from '../../test/members';
import { grantAdmin } from '../moderation';
import { adsClient } from '../../test/ads';

/**
 * Moderation of advertisements (issue 12): reportable like every item; an admin rejects an ad
 * with a reason (never served again, cannot be activated, its author sees the reason and gets the
 * statement of reasons), a restore makes it paused, editing it makes it a draft.
 */
let t: TestApp;
let ads: ReturnType<typeof adsClient>;
let admin: Member;
let author: Member;
let reader: Member;
let other: Member;

beforeAll(async () => {
  // A long serving cache: a rejection must still stop serving at once in this process.
  t = await createTestApp({ config: { adsServingCacheMs: 60_000 } });
  ads = adsClient(t);
  [admin, author, reader, other] = await Promise.all([
    createMember(t, { displayName: 'Ada Admin' }),
    createMember(t, { displayName: 'Umberto Autore' }),
    createMember(t, { displayName: 'Rita Reader' }),
    createMember(t, { displayName: 'Otto Other' }),
  ]);
  expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
}, 120_000);

const report = (who: Member, id: string, reason = 'scam') =>
  ads.call(who, 'POST', '/api/reports', { kind: 'ad', id, reason });

describe('reporting an advertisement', () => {
  it('takes one open report per member and ad; 404 for ads the reporter cannot see', async () => {
    const id = await ads.createAd(author, { title: 'Il pendolo di Foucault' });
    const first = await report(reader, id);
    expect(first.statusCode, first.body).toBe(201);
    const again = await report(reader, id, 'spam');
    expect(again.statusCode).toBe(409);
    expect((await report(author, id)).statusCode).toBe(400);
    // A visitor: illegal content only, with a name and e-mail.
    const visitor = await t.inject({
      method: 'POST',
      url: '/api/reports',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: { kind: 'ad', id, reason: 'illegal', name: 'Vera', email: 'vera@example.com' },
    });
    expect(visitor.statusCode, visitor.body).toBe(201);

    // A draft or a paused ad is not shown to readers: 404.
    const draft = await ads.createAd(author, { title: 'Bozza' }, false);
    const res = await report(reader, draft);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('This content does not exist or is no longer visible');
    expect((await report(reader, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);

    const queue = (await ads.call(admin, 'GET', '/api/admin/reports')).json();
    expect(queue.items.find((e: { itemId: string }) => e.itemId === id)).toMatchObject({
      kind: 'ad',
      count: 2,
      item: {
        title: 'Il pendolo di Foucault',
        excerpt: 'Un giallo in un monastero del Trecento.',
        authorId: author.id,
        authorName: 'Umberto Autore',
        link: `/ads/${id}`,
        hidden: false,
        rejectable: true,
      },
    });
  });
});

describe('rejecting an advertisement', () => {
  it('is for admins only: 401 for visitors, 404 for members, and nothing changes', async () => {
    const id = await ads.createAd(author, { title: 'Solo per admin' });
    for (const action of ['reject', 'hide', 'restore', 'dismiss']) {
      const url = `/api/admin/items/ad/${id}/${action}`;
      expect((await ads.call(null, 'POST', url, { reason: 'x' })).statusCode).toBe(401);
      expect((await ads.call(reader, 'POST', url, { reason: 'x' })).statusCode).toBe(404);
      expect((await ads.call(author, 'POST', url, {})).statusCode).toBe(404);
    }
    expect((await ads.call(reader, 'GET', `/api/ads/${id}`)).json().ad.status).toBe('active');
  });

  it('stops serving it, keeps it from running, tells its author why, and logs it', async () => {
    const id = await ads.createAd(author, { title: 'Copie pirata', keywords: 'pirata' });
    await report(reader, id);
    expect((await ads.slot()).map((a) => a.id)).toContain(id);
    expect(
      (await ads.call(null, 'GET', '/api/ads')).json().items.map((a: { id: string }) => a.id),
    ).toContain(id);

    const noReason = await ads.call(admin, 'POST', `/api/admin/items/ad/${id}/reject`, {});
    expect(noReason.statusCode).toBe(400);
    const rejected = await ads.call(admin, 'POST', `/api/admin/items/ad/${id}/reject`, {
      reason: 'It sells pirated copies.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);

    // Never served, not on the promoted page, not readable by others.
    expect((await ads.slot()).map((a) => a.id)).not.toContain(id);
    expect((await ads.slot(`placement=library&limit=12&q=pirata`)).map((a) => a.id)).not.toContain(
      id,
    );
    expect(
      (await ads.call(null, 'GET', '/api/ads')).json().items.map((a: { id: string }) => a.id),
    ).not.toContain(id);
    expect((await ads.call(reader, 'GET', `/api/ads/${id}`)).statusCode).toBe(404);
    expect((await report(other, id)).statusCode).toBe(404);

    // Its author sees it rejected, with the reason, and cannot run it.
    const own = (await ads.call(author, 'GET', `/api/ads/${id}`)).json().ad;
    expect(own).toMatchObject({
      status: 'rejected',
      rejectionReason: 'It sells pirated copies.',
      running: false,
    });
    const list = (await ads.call(author, 'GET', '/api/ads/mine')).json();
    expect(list.items.find((a: { id: string }) => a.id === id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'It sells pirated copies.',
    });
    for (const action of ['activate', 'resume', 'pause']) {
      const res = await ads.call(author, 'POST', `/api/ads/${id}/${action}`);
      expect(res.statusCode, action).toBe(409);
      expect(res.json().error.message).toBe('This advertisement was rejected and cannot run');
    }

    // The statement of reasons: e-mail and bell.
    const [mail] = await t.database.query<{ subject: string; text: string }>(
      'select subject, text from mail_outbox where "to" = $1 order by id desc',
      [author.email],
    );
    expect(mail.subject).toMatch(/inserzione è stata rifiutata|advertisement was rejected/);
    expect(mail.text).toContain('It sells pirated copies.');
    expect(mail.text).toContain('Copie pirata');
    const bell = (await ads.call(author, 'GET', '/api/notifications')).json();
    const note = bell.items.find((n: { type: string }) => n.type === 'moderation.action');
    expect(note).toMatchObject({ subject: { type: 'ad', id }, link: `/ads/${id}` });
    expect(notificationText('en', { ...note, actorName: null })).toBe(
      'The moderators rejected your advertisement “Copie pirata”: open it to read why',
    );

    // The audit log, and the queue no longer lists it.
    const log = (await ads.call(admin, 'GET', '/api/admin/log')).json();
    expect(log.items[0]).toMatchObject({
      action: 'reject',
      kind: 'ad',
      itemId: id,
      targetUserId: author.id,
      reason: 'It sells pirated copies.',
    });
    const queue = (await ads.call(admin, 'GET', '/api/admin/reports')).json();
    expect(queue.items.map((e: { itemId: string }) => e.itemId)).not.toContain(id);

    // Editing it sends it back to draft (the reason goes); then it can be activated again.
    const edited = await ads.call(author, 'PATCH', `/api/ads/${id}`, { title: 'Copie originali' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().ad).toMatchObject({ status: 'draft', rejectionReason: null });
    expect((await ads.call(author, 'POST', `/api/ads/${id}/activate`)).statusCode).toBe(200);
    expect((await ads.slot()).map((a) => a.id)).toContain(id);
  });

  it("takes 'hide' as a rejection, and a restore makes it paused", async () => {
    const id = await ads.createAd(author, { title: 'Da ripristinare' });
    await report(reader, id, 'spam');
    const hidden = await ads.call(admin, 'POST', `/api/admin/items/ad/${id}/hide`, {
      reason: 'Looks like spam.',
    });
    expect(hidden.statusCode).toBe(200);
    expect((await ads.call(author, 'GET', `/api/ads/${id}`)).json().ad.status).toBe('rejected');
    const log = (await ads.call(admin, 'GET', '/api/admin/log')).json();
    expect(log.items[0]).toMatchObject({ action: 'reject', itemId: id });

    const restored = await ads.call(admin, 'POST', `/api/admin/items/ad/${id}/restore`, {
      reason: 'The author showed it is a real book.',
    });
    expect(restored.statusCode, restored.body).toBe(200);
    const ad = (await ads.call(author, 'GET', `/api/ads/${id}`)).json().ad;
    expect(ad).toMatchObject({ status: 'paused', rejectionReason: null });
    expect((await ads.slot()).map((a) => a.id)).not.toContain(id);
    const [mail] = await t.database.query<{ subject: string; text: string }>(
      'select subject, text from mail_outbox where "to" = $1 order by id desc',
      [author.email],
    );
    expect(mail.subject).toMatch(/non è più rifiutata|no longer rejected/);
    expect(mail.text).toMatch(/ora è in pausa|it is now paused/);
    expect(mail.text).toContain('The author showed it is a real book.');
    // Its author resumes it.
    expect((await ads.call(author, 'POST', `/api/ads/${id}/resume`)).statusCode).toBe(200);
    expect((await ads.slot()).map((a) => a.id)).toContain(id);
  });

  it('refuses to reject what cannot be rejected', async () => {
    const res = await ads.call(
      admin,
      'POST',
      `/api/admin/items/post/00000000-0000-4000-8000-000000000000/reject`,
      { reason: 'x' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'This kind of content cannot be rejected; hide it instead.',
    );
    const missing = await ads.call(
      admin,
      'POST',
      `/api/admin/items/ad/00000000-0000-4000-8000-000000000000/reject`,
      { reason: 'x' },
    );
    expect(missing.statusCode).toBe(404);
  });
});
