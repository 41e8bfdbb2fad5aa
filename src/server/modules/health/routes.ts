import { z } from 'zod';
import type { Module } from '../../platform/module';

export const healthRoutes: Module = async (app, { database }) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database reachability',
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable') }),
        },
      },
    },
    async (_request, reply) => {
      if (await database.ping()) return { status: 'ok' as const };
      return reply.status(503).send({ status: 'unavailable' as const });
    },
  );
};
