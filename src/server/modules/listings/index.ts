/** The listings module's contract: listing cards and details, agreed sales, the deal lock. */
export { CARD_COLUMNS, CARD_JOINS, type CardRow, findListingDetail, toCard } from './queries';
export { alreadyCompleted, recordAgreedSale } from './service';
export { refuseBooksInOpenDeal } from './deal-lock';
