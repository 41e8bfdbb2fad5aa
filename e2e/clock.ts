// The e2e server's clock, moved ahead for journeys that need time to pass.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { originOf } from './api';

export const DAY = 24 * 60 * 60 * 1000;

/**
 * Sets how far ahead the server's clock runs (TEST_CLOCK; 0: the real time again). The clock is
 * the whole server's, and journeys run side by side: moving it takes a lock (a directory beside
 * the e2e data) that setting it back to 0 releases, so two journeys never move it at once. A lock
 * left by a crashed run is taken over after two minutes.
 */
export async function serverClock(page: Page, offsetMs: number) {
  const lock = join(process.env.E2E_DATA_DIR ?? tmpdir(), 'server-clock.lock');
  if (offsetMs !== 0 && !heldClockLocks.has(lock)) {
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        const since = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
        if (since > 120_000) rmSync(lock, { recursive: true, force: true });
        else await page.waitForTimeout(200);
      }
    }
    heldClockLocks.add(lock);
  }
  const res = await page.request.post('/api/dev/clock', {
    headers: { origin: originOf(page) },
    data: { offsetMs },
  });
  expect(res.status(), await res.text()).toBe(200);
  if (offsetMs === 0 && heldClockLocks.delete(lock)) rmSync(lock, { recursive: true, force: true });
}
const heldClockLocks = new Set<string>();

/**
 * Keeps the server's clock at the real time until `serverClock(page, 0)`: for a journey that
 * writes real dates (a holiday until tomorrow) while other journeys may move the clock ahead.
 * It takes the clock's lock with an offset of one millisecond.
 */
export const holdRealClock = (page: Page) => serverClock(page, 1);

/** A `datetime-local` value `days` ahead at `hour`:00, in the browser's own time zone. */
export const inputTime = (page: Page, days: number, hour = 18) =>
  page.evaluate(
    ([d, h]) => {
      const when = new Date(Date.now() + d * 86_400_000);
      when.setHours(h, 0, 0, 0);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T${pad(h)}:00`;
    },
    [days, hour] as const,
  );
