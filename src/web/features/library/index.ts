export { Shelf } from './Shelf';
export { shelfTitle } from './shelfTitle';
export { ContactSellerSlot } from './ContactSellerSlot';
