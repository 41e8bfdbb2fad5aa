// The wishlist feature's public surface: only the heart, which listing cards and the book detail
// take. The pages are loaded lazily by the router (never from here).
export { WishlistHeart } from './WishlistHeart';
export { WorkWishButton } from './WorkWishButton';
