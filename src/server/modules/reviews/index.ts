/** The reviews module's contract: published reviews, a member's rating, the transaction subject. */
export { TRANSACTION_SUBJECT } from './confirmations';
export { memberRatingOf, publishedReview } from './service';
