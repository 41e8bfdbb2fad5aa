/** The deals module's contract: opening a deal, the listings an offer covers. */
export { offerListingIds, openDeal } from './context';
export { cancelDeal, dealNotFound, dealNotOpen, loadDeal, type DealContext } from './context';
export { endDueDeals } from './due';
export { moduleDealContext } from './module-context';
