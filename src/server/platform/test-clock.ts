import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { isDirectLoopback } from './network';
import { sendNotFound } from './errors';

/**
 * The e2e test clock (TEST_CLOCK, decision 0069): the app's `now` runs at an offset that
 * POST /api/dev/clock moves forward, so a journey can pass a date (a holiday's end) on a running
 * server. Only with the flag, which the config refuses in production, and only to direct loopback
 * requests, like the mail outbox.
 */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

export function createTestClock(base: () => number = Date.now): TestClock {
  let offset = 0;
  return {
    now: () => new Date(base() + offset),
    advance(ms) {
      offset += ms;
    },
  };
}

const advanceSchema = z.object({
  /** Forward only, at most a year at a time. */
  ms: z.number().int().min(0).max(366 * 24 * 60 * 60 * 1000),
});

export function registerTestClock(app: FastifyInstance, clock: TestClock): void {
  app.post(
    '/api/dev/clock',
    {
      schema: {
        tags: ['platform'],
        summary: 'Moves the app’s clock forward (TEST_CLOCK on, direct loopback requests only)',
        body: advanceSchema,
        response: { 200: z.object({ now: z.string() }) },
      },
      onRequest: async (request, reply) => {
        if (!isDirectLoopback(request)) return sendNotFound(request, reply);
      },
    },
    async (request) => {
      clock.advance((request.body as z.infer<typeof advanceSchema>).ms);
      return { now: clock.now().toISOString() };
    },
  );
}
