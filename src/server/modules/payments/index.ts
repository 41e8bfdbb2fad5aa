/**
 * The payments module's contract: its context, the webhook's path and reconciliation. A deal's
 * money follows the deal through platform/changes.ts (./follow-deals.ts), not through calls.
 */
export { createPaymentsContext } from './service';
export { reconcile } from './reconcile';
export { WEBHOOK_PATH } from './routes';
export { erasePayments, exportPayments } from './privacy';
