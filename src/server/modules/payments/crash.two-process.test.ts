import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../../test/members';
import { reconcile } from './reconcile';
import { release, resume } from './settle';
import {
  address,
  createPaymentsWorld,
  ledger,
  onboard,
  pay,
  paymentOf,
  postDeal,
  type PaymentsWorld,
} from './world.fixture';

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('payments crash test skipped: TEST_DATABASE_URL is not set');

/**
 * A real crash (issue 36): a process moving a deal's money is killed with SIGKILL between
 * Stripe's call and the ledger's write — before Stripe is asked (the claim is committed, nothing
 * moved) and after Stripe moved the money (its answer never reached the ledger). The recovery
 * run (`resume`, every minute in every process) sends the claim again with its idempotency key:
 * one movement in Stripe, one row in the ledger, nothing lost or doubled. PostgreSQL only: two
 * processes share the database.
 */
describe.skipIf(!pgUrl)('a process killed between Stripe and the ledger', () => {
  let w: PaymentsWorld;
  let seller: Member;
  let buyer: Member;

  beforeAll(async () => {
    w = await createPaymentsWorld();
    [seller, buyer] = await Promise.all([createMember(w.t), createMember(w.t)]);
    await onboard(w, seller);
  }, 200_000);

  /** A paid deal by post, shipped; `end` completes or cancels it with its money still held. */
  async function paidDeal(end: 'completed' | 'cancelled') {
    const d = await postDeal(w, seller, buyer);
    await pay(w, buyer, d.dealId);
    expect(
      (await w.req('POST', `/api/deals/${d.dealId}/address`, buyer, { address })).statusCode,
    ).toBe(200);
    const shipped = await w.req('POST', `/api/deals/${d.dealId}/ship`, seller, {
      carrier: 'brt',
      tracking: 'BRT-K9',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    // The deal's end is committed; its money has not moved yet (the process that ends it moves it).
    await w.t.database.query(`update deals set status = $2 where id = $1`, [d.dealId, end]);
    return d.dealId;
  }

  /** Runs the movement in a process of its own, paused by its hook, then kills it with -9. */
  async function crash(dealId: string, move: 'release' | 'refund', pause: 'before' | 'after') {
    const script = fileURLToPath(new URL('./crash-process.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: {
        ...process.env,
        DATABASE_URL: String(w.t.database.pool!.options.connectionString),
        PAYMENTS: JSON.stringify(w.settings),
        DEAL_ID: dealId,
        MOVE: move,
        PAUSE: pause,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_c, s) => r(s)));
    const paused = await new Promise<string | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never paused: ${stderr}`)), 120_000);
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const said = JSON.parse(line) as { paused?: string | null };
        if ('paused' in said) {
          clearTimeout(timer);
          resolve(said.paused ?? null);
        }
      });
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    return paused;
  }

  const made = (object: string, dealId: string) =>
    [...w.fake.state.objects.values()].filter(
      (o) => o.object === object && (o.metadata as { deal_id?: string }).deal_id === dealId,
    );

  it('after Stripe moved the money: resumed with the same key, nothing doubled', async () => {
    const dealId = await paidDeal('completed');
    const transferId = await crash(dealId, 'release', 'after');
    expect(transferId).toMatch(/^tr_/);
    expect(made('transfer', dealId)).toHaveLength(1);
    // The claim is in the ledger without Stripe's id; the money is not marked released.
    expect((await ledger(w, dealId)).at(-1)).toMatchObject({ kind: 'transfer', stripe_id: null });
    expect((await paymentOf(w, dealId, seller)).status).toBe('paid');
    // Another caller finds the claim and moves nothing.
    expect(await release(w.ctx, dealId)).toBe(false);

    expect(await resume(w.ctx, 0)).toBeGreaterThanOrEqual(1);
    expect(made('transfer', dealId)).toHaveLength(1);
    const rows = await ledger(w, dealId);
    expect(rows.map((r) => [r.kind, r.amount_cents, r.stripe_id])).toEqual([
      ['charge', 1540, expect.stringMatching(/^pi_/)],
      ['fee', 140, expect.stringMatching(/^pi_/)],
      ['transfer', 1400, transferId],
    ]);
    expect(await paymentOf(w, dealId, seller)).toMatchObject({
      status: 'released',
      releasedCents: 1400,
    });
    expect((await reconcile(w.ctx)).differences.filter((x) => x.dealId === dealId)).toEqual([]);
  }, 200_000);

  it('before Stripe was asked: resumed, nothing lost', async () => {
    const dealId = await paidDeal('cancelled');
    expect(await crash(dealId, 'refund', 'before')).toBeNull();
    expect(made('refund', dealId)).toHaveLength(0);
    expect((await ledger(w, dealId)).at(-1)).toMatchObject({ kind: 'refund', stripe_id: null });

    expect(await resume(w.ctx, 0)).toBeGreaterThanOrEqual(1);
    const refunds = made('refund', dealId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].amount).toBe(1540);
    expect((await ledger(w, dealId)).at(-1)).toMatchObject({
      kind: 'refund',
      stripe_id: refunds[0].id,
    });
    expect(await paymentOf(w, dealId, buyer)).toMatchObject({
      status: 'refunded',
      refundedCents: 1540,
    });
    // A second recovery run changes nothing.
    await resume(w.ctx, 0);
    expect(made('refund', dealId)).toHaveLength(1);
    expect((await reconcile(w.ctx)).differences.filter((x) => x.dealId === dealId)).toEqual([]);
  }, 200_000);
});
