/** The wishlist module's contract: its alerts and the books they announce. */
export {
  announceAvailability,
  availableListings,
  createWishlistAlerts,
  defineWishlistTypes,
  wishlistAlertsSettled,
} from './alerts';
