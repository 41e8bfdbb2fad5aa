import { z } from 'zod';
import type { Module } from '../../platform/module';

export const healthRoutes: Module = async (app, { database }) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database reachability',
        description:
          'Liveness: 200 while the process runs and reaches its database, draining or not. ' +
          'A load balancer decides where to send traffic with /api/ready.',
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

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['platform'],
        summary: 'Readiness: may this process take new traffic?',
        description:
          'For load balancers and orchestrators. 200 when the process takes traffic and reaches ' +
          'its database; 503 `draining` from SIGTERM on (it is finishing its requests and will ' +
          'exit: send new ones elsewhere), 503 `unavailable` when the database does not answer. ' +
          'Never cached.',
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z.object({ status: z.enum(['draining', 'unavailable']) }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      if (app.lifecycle.draining) return reply.status(503).send({ status: 'draining' as const });
      if (!(await database.ping()))
        return reply.status(503).send({ status: 'unavailable' as const });
      return { status: 'ready' as const };
    },
  );
};
