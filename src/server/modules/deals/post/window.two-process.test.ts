import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../../test/app';
import { createNullRealtime } from '../../../platform/realtime';
import { requester, createMember } from '../../../test/members';
import { openDealBetween, type OpenDeal } from '../../../test/deals';

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('two-process post window test skipped: TEST_DATABASE_URL is not set');

const DAY = 24 * 60 * 60 * 1000;

/** The real app in a process of its own (./window-process.ts), at the clock `now`. */
function startProcess(databaseUrl: string, now: Date) {
  const script = fileURLToPath(new URL('./window-process.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NOW: now.toISOString(),
      AUTH_SECRET: testConfig().authSecret,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const waitFor = (key: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${key}: ${stderr}`)), 90_000);
      child.once('exit', (code) => code && reject(new Error(`exited ${code}: ${stderr}`)));
      lines.on('line', (line) => {
        if ((JSON.parse(line) as Record<string, unknown>)[key]) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  const exited = new Promise((r) => child.once('exit', r));
  return { child, built: waitFor('built'), ready: () => waitFor('ready'), exited };
}

/**
 * Two server processes on one PostgreSQL database start together after the buyers' windows
 * closed (a restart of a deployment with two replicas): each runs the window job at start, and
 * each deal completes once — one sale, one step message, one notification per side.
 */
describe.skipIf(!pgUrl)('the post window job across two processes', () => {
  let t: TestApp;
  let deals: OpenDeal[];
  const shippedAt = new Date();

  beforeAll(async () => {
    const database = await createTestDatabase();
    t = await createTestApp({
      database,
      deps: { realtime: createNullRealtime(), now: () => shippedAt },
    });
    const req = requester(t);
    const seller = await createMember(t);
    const buyer = await createMember(t);
    deals = [];
    for (let i = 0; i < 3; i++) {
      const d = await openDealBetween(t, seller, buyer, { listing: { shippingCost: 3 } });
      await req('POST', `/api/deals/${d.dealId}/address`, buyer, {
        address: { name: 'B', street: 'Via 1', postalCode: '10100', city: 'Torino', country: 'IT' },
      });
      const res = await req('POST', `/api/deals/${d.dealId}/ship`, seller, {
        carrier: 'gls',
        tracking: `GLS${i}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      deals.push(d);
    }
  }, 200_000);

  it('completes each deal once', async () => {
    const url = String(t.database.pool!.options.connectionString);
    const later = new Date(shippedAt.getTime() + 15 * DAY);
    const processes = [startProcess(url, later), startProcess(url, later)];
    await Promise.all(processes.map((p) => p.built));
    const ready = processes.map((p) => p.ready());
    for (const p of processes) p.child.stdin.write('go\n');
    await Promise.all(ready);
    await Promise.all(processes.map((p) => p.exited));
    const ids = deals.map((d) => d.dealId);
    const rows = await t.database.query<{ status: string; sales: number; steps: number }>(
      `select d.status,
         (select count(*)::int from transactions x where x.deal_id = d.id) as sales,
         (select count(*)::int from chat_messages m
          where m.deal_id = d.id and m.content = 'post.window_closed') as steps
       from deals d where d.id = any($1::uuid[])`,
      [ids],
    );
    expect(rows).toEqual(ids.map(() => ({ status: 'completed', sales: 1, steps: 1 })));
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from notifications
       where type = 'deal.step' and data->>'context' = 'post_window_closed'`,
    );
    expect(n).toBe(ids.length * 2);
  }, 200_000);
});
