import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../platform/module';
import type { DealContext } from '../context';
import { registerTradePostRoutes } from './routes';
import { scheduleTradeWindowJob } from './window';

/**
 * Trades by post (issue 33 item 8, decision 0090): a trade deal of method 'post', each member
 * sending their own books. Registered by the post part (the method's), whose cases, cancel rule
 * and reading it shares.
 */
export function registerTradePost(app: FastifyInstance, ctx: DealContext, deps: AppDeps) {
  registerTradePostRoutes(app, ctx);
  scheduleTradeWindowJob(app, ctx, deps);
}
