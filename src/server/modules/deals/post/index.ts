import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../platform/module';
import type { DealContext } from '../context';
import { registerPostRoutes } from './routes';
import { registerAddressRoutes } from './addresses';
import { registerCaseRoutes } from './cases';
import { scheduleWindowJob } from './window';
import { registerTradePost } from '../trade-post';

export { postPart } from './part';

/** The post part's routes and jobs (a trade by post's too), registered by the deals module. */
export function registerPost(app: FastifyInstance, ctx: DealContext, deps: AppDeps) {
  registerAddressRoutes(app, deps);
  registerPostRoutes(app, ctx);
  registerCaseRoutes(app, ctx, deps);
  scheduleWindowJob(app, ctx, deps);
  registerTradePost(app, ctx, deps);
}
