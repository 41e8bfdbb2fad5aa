export { BookCard } from './BookCard';
export { TypeBadge, StatusBadge, ActiveBadge } from './badges';
export { useListing, useMyListings, listingKeys } from './api';
export { AddBookModal, type AddBookStep } from './AddBookModal';
export { notifyError, notifySuccess } from './errors';
export { OwnerListingActions } from './OwnerListingActions';
