import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { expectRefusal, requester, createMember, type Member } from '../../../test/members';
import { openDealBetween, type OpenDeal } from '../../../test/deals';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let t: TestApp;
let req: ReturnType<typeof requester>;
let seller: Member;
let buyer: Member;
let other: Member;
// The app's clock (its injected `now`): tests move it past a meeting's time.
let clock = Date.parse('2026-11-26T10:00:00Z');
const at = (ms: number) => new Date(clock + ms).toISOString();

beforeAll(async () => {
  // A millisecond more at each reading, so that notifications keep their order.
  let tick = 0;
  t = await createTestApp({ deps: { now: () => new Date(clock + ++tick) } });
  req = requester(t);
  seller = await createMember(t, { username: 'mara_meets', displayName: 'Mara Meets' });
  buyer = await createMember(t, { username: 'bruno_buys', displayName: 'Bruno Buys' });
  other = await createMember(t, { username: 'olga_other', displayName: 'Olga Other' });
}, 120_000);

const url = (d: OpenDeal, path = '') => `/api/deals/${d.dealId}/meeting${path}`;
const proposal = (over: object = {}) => ({ place: 'Piazza Maggiore', at: at(2 * HOUR), ...over });
const dealOf = async (d: OpenDeal, who: Member = buyer) =>
  (await req('GET', `/api/deals/${d.dealId}`, who)).json().deal;
const listingStatus = async (id: string) =>
  (await req('GET', `/api/listings/${id}`)).json().status as string;
/** The member's deal.step notification of `context` (the app's clock stands still: no order). */
const noticeOf = async (who: Member, d: OpenDeal, context: string) =>
  (await req('GET', '/api/notifications', who))
    .json()
    .items.find(
      (n: { type: string; data: { context?: string; dealId?: string } }) =>
        n.type === 'deal.step' && n.data.context === context && n.data.dealId === d.dealId,
    );
const lastMessage = async (d: OpenDeal) =>
  (await req('GET', `/api/chats/rooms/${d.roomId}/messages`, buyer)).json().items.at(-1);

/** A deal whose meeting `proposer` proposed and the other side accepted. */
async function agreed(opts: { in?: number } = {}) {
  const d = await openDealBetween(t, seller, buyer);
  const proposed = await req('POST', url(d), buyer, proposal({ at: at(opts.in ?? 2 * HOUR) }));
  expect(proposed.statusCode, proposed.body).toBe(200);
  const meetingId = proposed.json().deal.meeting.current.id;
  const accepted = await req('POST', url(d, '/accept'), seller, { meetingId });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return d;
}

/** Runs `work` with the app's clock `ms` ahead, then puts it back. */
async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
  clock += ms;
  try {
    return await work();
  } finally {
    clock -= ms;
  }
}

describe('proposing a meeting', () => {
  it('by either side: the place, note and time in the deal; a step in the chat; the other told', async () => {
    const d = await openDealBetween(t, seller, buyer);
    expect((await dealOf(d)).meeting).toEqual({
      current: null,
      confirmed: { buyer: null, seller: null },
      due: false,
    });
    const res = await req(
      'POST',
      url(d),
      seller,
      proposal({ place: '  Bar Zanarini, Bologna  ', note: 'Ho un cappello rosso' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deal.meeting).toMatchObject({
      current: {
        place: 'Bar Zanarini, Bologna',
        note: 'Ho un cappello rosso',
        at: at(2 * HOUR),
        proposedBy: 'seller',
        status: 'open',
      },
      due: false,
    });
    expect(await lastMessage(d)).toMatchObject({
      type: 'deal',
      content: 'meeting.proposed',
      senderId: seller.id,
    });
    expect(await noticeOf(buyer, d, 'meeting_proposed')).toMatchObject({
      actor: expect.objectContaining({ displayName: 'Mara Meets' }),
      data: expect.objectContaining({ place: 'Bar Zanarini, Bologna' }),
    });
    // The buyer reads it the same way.
    expect((await dealOf(d, buyer)).meeting.current.proposedBy).toBe('seller');
  });

  it('is refused to visitors (401) and to anyone else (404), changing nothing', async () => {
    const d = await openDealBetween(t, seller, buyer);
    expect((await req('POST', url(d), undefined, proposal())).statusCode).toBe(401);
    expect((await req('POST', url(d), other, proposal())).statusCode).toBe(404);
    for (const bad of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect((await req('POST', `/api/deals/${bad}/meeting`, buyer, proposal())).statusCode).toBe(
        404,
      );
    }
    expect((await dealOf(d)).meeting.current).toBeNull();
  });

  it('refuses a time in the past or more than 90 days ahead, in the member’s language', async () => {
    const d = await openDealBetween(t, seller, buyer);
    for (const [when, en, it_] of [
      [at(-60_000), 'Choose a time in the future', 'Scegli un orario nel futuro'],
      [at(0), 'Choose a time in the future', 'Scegli un orario nel futuro'],
      [
        at(91 * DAY),
        'Choose a time within the next 90 days',
        'Scegli un orario entro i prossimi 90 giorni',
      ],
    ]) {
      for (const lang of ['en', 'it']) {
        const res = await req('POST', url(d), buyer, proposal({ at: when }), lang);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error.fields.at).toBe(lang === 'en' ? en : it_);
      }
    }
    // 90 days ahead is still fine.
    expect((await req('POST', url(d), buyer, proposal({ at: at(90 * DAY) }))).statusCode).toBe(200);
  });

  it('refuses a missing or too long place, a long note, nonsense times, NUL bytes and huge values', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const fieldError = async (body: object, field: string, lang = 'en') => {
      const res = await req('POST', url(d), buyer, body, lang);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().error.fields?.[field] as string;
    };
    expect(await fieldError(proposal({ place: '   ' }), 'place')).toBe('Say where to meet');
    expect(await fieldError(proposal({ place: 'x'.repeat(201) }), 'place')).toBe(
      'The place can be at most 200 characters long',
    );
    expect(await fieldError(proposal({ place: 'x'.repeat(201) }), 'place', 'it')).toBe(
      'Il luogo può essere lungo al massimo 200 caratteri',
    );
    expect(await fieldError(proposal({ note: 'n'.repeat(501) }), 'note')).toBe(
      'The note can be at most 500 characters long',
    );
    for (const bad of [
      'tomorrow',
      '2026-13-40T25:00:00Z',
      '2026-12-01T10:00:00',
      'x'.repeat(100_000),
      12,
    ])
      expect(await fieldError(proposal({ at: bad }), 'at')).toBe('Choose a valid date and time');
    expect(await fieldError(proposal({ place: 'Piazza\u0000' }), 'place')).toContain(
      'character that is not allowed',
    );
    const { place: _place, ...noPlace } = proposal();
    expect(await fieldError(noPlace, 'place')).toBe('Say where to meet');
    // 200 characters are fine.
    expect(
      (await req('POST', url(d), buyer, proposal({ place: 'p'.repeat(200) }))).statusCode,
    ).toBe(200);
  });

  it('countering replaces the open proposal; only one is ever current', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const first = (await req('POST', url(d), buyer, proposal())).json().deal.meeting.current;
    const counter = await req(
      'POST',
      url(d),
      seller,
      proposal({ place: 'Stazione Centrale', at: at(DAY) }),
    );
    expect(counter.statusCode, counter.body).toBe(200);
    const current = counter.json().deal.meeting.current;
    expect(current).toMatchObject({
      place: 'Stazione Centrale',
      proposedBy: 'seller',
      status: 'open',
    });
    expect(current.id).not.toBe(first.id);
    expect(await lastMessage(d)).toMatchObject({
      content: 'meeting.countered',
      senderId: seller.id,
    });
    expect(await noticeOf(buyer, d, 'meeting_countered')).toBeTruthy();
    // The replaced proposal can no longer be accepted.
    await expectRefusal(t, ['POST', url(d, '/accept'), seller, { meetingId: first.id }], {
      status: 409,
      en: 'This proposal is no longer open: look at the latest one',
      it: 'Questa proposta non è più aperta: guarda l’ultima',
    });
    const rows = await t.database.query<{ status: string }>(
      'select status from deal_meetings where deal_id = $1 order by created_at',
      [d.dealId],
    );
    expect(rows.map((r) => r.status)).toEqual(['replaced', 'open']);
  });

  it('two proposals at once: both answered without a 500, one current proposal left', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const answers = await Promise.all([
      req('POST', url(d), buyer, proposal({ place: 'A' })),
      req('POST', url(d), seller, proposal({ place: 'B' })),
    ]);
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from deal_meetings where deal_id = $1 and status in ('open', 'accepted')`,
      [d.dealId],
    );
    expect(n).toBe(1);
  });

  it('is refused for a deal by post and for a deal that ended', async () => {
    const post = await openDealBetween(t, seller, buyer, { listing: { shippingCost: 4 } });
    await expectRefusal(t, ['POST', url(post), buyer, proposal()], {
      status: 409,
      en: 'This deal goes by post: there is no meeting',
      it: 'Questa trattativa è per posta: non c’è un incontro',
    });
    const ended = await openDealBetween(t, seller, buyer);
    expect((await req('POST', `/api/deals/${ended.dealId}/cancel`, buyer)).statusCode).toBe(200);
    const res = await req('POST', url(ended), seller, proposal());
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('This deal has already ended');
  });
});

describe('accepting a meeting', () => {
  it('by the other side: agreed, a step in the chat, the proposer told', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const { id } = (await req('POST', url(d), buyer, proposal())).json().deal.meeting.current;
    const res = await req('POST', url(d, '/accept'), seller, { meetingId: id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deal.meeting).toMatchObject({
      current: { id, status: 'accepted', proposedBy: 'buyer' },
      due: false,
    });
    expect(await lastMessage(d)).toMatchObject({
      content: 'meeting.accepted',
      senderId: seller.id,
    });
    expect((await noticeOf(buyer, d, 'meeting_accepted')).data.place).toBe('Piazza Maggiore');
  });

  it('not one’s own proposal (403), not by anyone else (404) or visitors (401), not twice', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const { id } = (await req('POST', url(d), buyer, proposal())).json().deal.meeting.current;
    await expectRefusal(t, ['POST', url(d, '/accept'), buyer, { meetingId: id }], {
      status: 403,
      en: 'You cannot accept your own proposal',
      it: 'Non puoi accettare la tua stessa proposta',
    });
    expect((await req('POST', url(d, '/accept'), other, { meetingId: id })).statusCode).toBe(404);
    expect((await req('POST', url(d, '/accept'), undefined, { meetingId: id })).statusCode).toBe(
      401,
    );
    expect((await dealOf(d)).meeting.current.status).toBe('open');
    expect((await req('POST', url(d, '/accept'), seller, { meetingId: id })).statusCode).toBe(200);
    expect((await req('POST', url(d, '/accept'), seller, { meetingId: id })).statusCode).toBe(409);
    // Nonsense ids and bodies: 409 or 400, never a 500.
    expect(
      (await req('POST', url(d, '/accept'), seller, { meetingId: 'x\u0000' })).statusCode,
    ).toBe(400);
    expect(
      (await req('POST', url(d, '/accept'), seller, { meetingId: 'y'.repeat(65) })).statusCode,
    ).toBe(400);
    expect((await req('POST', url(d, '/accept'), seller, {})).statusCode).toBe(400);
  });

  it('is refused with nothing proposed, and once the proposed time has passed', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const none = await req('POST', url(d, '/accept'), seller, {
      meetingId: '00000000-0000-4000-8000-000000000000',
    });
    expect(none.statusCode).toBe(409);
    const { id } = (await req('POST', url(d), buyer, proposal({ at: at(HOUR) }))).json().deal
      .meeting.current;
    const late = await later(2 * HOUR, () =>
      req('POST', url(d, '/accept'), seller, { meetingId: id }),
    );
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(
      'The time of this proposal has passed: propose another one',
    );
  });

  it('a meeting of another deal cannot be accepted through this one', async () => {
    const mine = await openDealBetween(t, seller, buyer);
    const theirs = await openDealBetween(t, seller, other);
    const { id } = (await req('POST', url(theirs), other, proposal())).json().deal.meeting.current;
    await req('POST', url(mine), buyer, proposal());
    expect((await req('POST', url(mine, '/accept'), seller, { meetingId: id })).statusCode).toBe(
      409,
    );
    expect((await dealOf(theirs, other)).meeting.current.status).toBe('open');
  });

  it('an accepted meeting may still be moved by a new proposal before anyone confirmed', async () => {
    const d = await agreed();
    const res = await req('POST', url(d), seller, proposal({ place: 'Biblioteca Salaborsa' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deal.meeting.current).toMatchObject({ status: 'open', proposedBy: 'seller' });
    expect(await lastMessage(d)).toMatchObject({ content: 'meeting.countered' });
  });
});

describe('confirming the exchange', () => {
  it('only after the accepted time (the app’s clock); both confirmations complete the deal', async () => {
    const d = await agreed({ in: 2 * HOUR });
    await expectRefusal(t, ['POST', url(d, '/confirm'), buyer, undefined], {
      status: 409,
      en: 'You can confirm once the time of the meeting has come',
      it: 'Puoi confermare quando è arrivata l’ora dell’incontro',
    });
    clock += 3 * HOUR;
    try {
      expect((await dealOf(d)).meeting.due).toBe(true);
      const first = await req('POST', url(d, '/confirm'), buyer);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().deal.status).toBe('open');
      expect(first.json().deal.meeting.confirmed).toEqual({
        buyer: expect.stringMatching(/^2026-11-26T1[23]:/),
        seller: null,
      });
      expect(await lastMessage(d)).toMatchObject({
        content: 'meeting.confirmed',
        senderId: buyer.id,
      });
      expect(await noticeOf(seller, d, 'meeting_confirmed')).toBeTruthy();
      expect(await listingStatus(d.listingId)).toBe('reserved');
      await expectRefusal(t, ['POST', url(d, '/confirm'), buyer, undefined], {
        status: 409,
        en: 'You have already confirmed the exchange',
        it: 'Hai già confermato lo scambio',
      });
      // Once one side said it happened, the meeting no longer moves and the deal is not cancelled.
      await expectRefusal(t, ['POST', `/api/deals/${d.dealId}/cancel`, seller, undefined], {
        status: 409,
        en: 'The exchange has been confirmed: the deal can no longer be cancelled',
        it: 'Lo scambio è stato confermato: la trattativa non può più essere annullata',
      });
      expect((await req('POST', url(d), seller, proposal())).statusCode).toBe(409);
      expect((await req('POST', url(d, '/confirm'), other)).statusCode).toBe(404);

      const second = await req('POST', url(d, '/confirm'), seller);
      expect(second.statusCode, second.body).toBe(200);
      expect(second.json().deal).toMatchObject({ status: 'completed', role: 'seller' });
      expect(await listingStatus(d.listingId)).toBe('sold');
      const page = (await req('GET', `/api/chats/rooms/${d.roomId}/messages`, buyer)).json();
      expect(page.items.slice(-2).map((m: { content: string }) => m.content)).toEqual([
        'meeting.confirmed',
        'deal.completed',
      ]);
      const tx = await t.database.query<{ deal_id: string; status: string; buyer_id: string }>(
        'select deal_id::text, status, buyer_id from transactions where listing_id = $1',
        [d.listingId],
      );
      expect(tx).toEqual([{ deal_id: d.dealId, status: 'completed', buyer_id: buyer.id }]);
      expect(await noticeOf(buyer, d, 'deal_completed')).toBeTruthy();
      expect(await noticeOf(seller, d, 'deal_completed')).toBeUndefined();
      // Nothing more happens to a completed deal.
      expect((await req('POST', url(d, '/confirm'), buyer)).statusCode).toBe(409);
      expect((await req('POST', `/api/deals/${d.dealId}/cancel`, buyer)).statusCode).toBe(409);
    } finally {
      clock -= 3 * HOUR;
    }
  });

  it('both at once: the deal completes exactly once, never a 500', async () => {
    const d = await agreed({ in: HOUR });
    await later(2 * HOUR, async () => {
      const answers = await Promise.all([
        req('POST', url(d, '/confirm'), buyer),
        req('POST', url(d, '/confirm'), seller),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      expect((await dealOf(d)).status).toBe('completed');
      const [{ n }] = await t.database.query<{ n: number }>(
        'select count(*)::int as n from transactions where deal_id = $1',
        [d.dealId],
      );
      expect(n).toBe(1);
      const completed = await t.database.query(
        `select 1 from chat_messages where deal_id = $1 and content = 'deal.completed'`,
        [d.dealId],
      );
      expect(completed).toHaveLength(1);
    });
  });

  it('without a meeting agreed (arranged in the chat) either may confirm; only both complete it', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const first = await req('POST', url(d, '/confirm'), seller);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().deal).toMatchObject({ status: 'open' });
    // One side's word is not a sale: the book stays reserved, no transaction.
    expect(await listingStatus(d.listingId)).toBe('reserved');
    const none = await t.database.query(
      `select 1 from transactions where deal_id = $1 and status = 'completed'`,
      [d.dealId],
    );
    expect(none).toHaveLength(0);
    expect(await noticeOf(buyer, d, 'meeting_confirmed')).toBeTruthy();
    const second = await req('POST', url(d, '/confirm'), buyer);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().deal.status).toBe('completed');
    expect(await listingStatus(d.listingId)).toBe('sold');
    expect((await req('POST', url(d, '/confirm'))).statusCode).toBe(401);
  });

  it('a proposal still open does not hold the confirmation back; an agreed one does until its time', async () => {
    const open = await openDealBetween(t, seller, buyer);
    await req('POST', url(open), buyer, proposal({ at: at(HOUR) }));
    expect((await req('POST', url(open, '/confirm'), seller)).statusCode).toBe(200);
    const d = await agreed({ in: HOUR });
    expect((await req('POST', url(d, '/confirm'), seller)).statusCode).toBe(409);
  });

  it('a deal still open may be cancelled by either side before anyone confirmed', async () => {
    const d = await agreed();
    const res = await req('POST', `/api/deals/${d.dealId}/cancel`, seller);
    expect(res.statusCode, res.body).toBe(200);
    expect(await listingStatus(d.listingId)).toBe('available');
    expect((await req('POST', url(d, '/confirm'), buyer)).statusCode).toBe(409);
  });
});

describe('the API document', () => {
  it('lists the meeting routes with their errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    for (const path of ['', '/accept', '/confirm']) {
      const route = doc.paths[`/api/deals/{dealId}/meeting${path}`].post;
      expect(Object.keys(route.responses).sort().join()).toBe('200,400,401,403,404,409,429');
    }
  });
});
