export { BookCard } from './BookCard';
export { BookCover } from './BookCover';
export { CoverUpload } from './CoverUpload';
export { IMAGE_ACCEPT, UploadProgress, useImageUpload } from './imageUpload';
export { TypeBadge, StatusBadge, ActiveBadge } from './badges';
export { formatPrice } from './format';
export { useListing, listingKeys } from './api';
export { AddBookModal, type AddBookStep } from './AddBookModal';
export { ErrorAlert } from '../../components/ErrorAlert';
