export { BookCard } from './BookCard';
export { TypeBadge, StatusBadge, ActiveBadge } from './badges';
export { useListing, listingKeys } from './api';
export { AddBookModal, type AddBookStep } from './AddBookModal';
export { notifyError, notifySuccess } from './errors';
