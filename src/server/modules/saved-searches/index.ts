/** The saved-searches module's contract: its alerts and the search rows (seed, benchmarks). */
export {
  createSavedSearchAlerts,
  defineSavedSearchTypes,
  savedSearchAlertsSettled,
} from './alerts';
export { insertSearches, listingKeys, storeMatches } from './queries';
