import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { isDirectLoopback } from './network';
import { sendNotFound } from './errors';

/**
 * The e2e test clock (TEST_CLOCK, decision 0069): the app's `now` runs at an offset that
 * POST /api/dev/clock sets, so a journey can pass a date (a holiday's end) on a running server.
 * The offset is the whole process's: a journey sets it only for the seconds it needs and sets it
 * back to 0 (the journeys running beside it see the real time again). Only with the flag, which
 * the config refuses in production, and only to direct loopback requests, like the mail outbox.
 */
export interface TestClock {
  now(): Date;
  /** Sets how far ahead of the real time the app's clock runs (0: the real time again). */
  setOffset(ms: number): void;
}

export function createTestClock(base: () => number = Date.now): TestClock {
  let offset = 0;
  return {
    now: () => new Date(base() + offset),
    setOffset(ms) {
      offset = ms;
    },
  };
}

const offsetSchema = z.object({
  /** Ahead of the real time only (never before it), at most a year. */
  offsetMs: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 60 * 60 * 1000),
});

export function registerTestClock(app: FastifyInstance, clock: TestClock): void {
  app.post(
    '/api/dev/clock',
    {
      schema: {
        tags: ['platform'],
        summary:
          'Sets how far ahead the app’s clock runs, 0 for the real time (TEST_CLOCK on, direct loopback requests only)',
        body: offsetSchema,
        response: { 200: z.object({ now: z.string() }) },
      },
      onRequest: async (request, reply) => {
        if (!isDirectLoopback(request)) return sendNotFound(request, reply);
      },
    },
    async (request) => {
      clock.setOffset((request.body as z.infer<typeof offsetSchema>).offsetMs);
      return { now: clock.now().toISOString() };
    },
  );
}
