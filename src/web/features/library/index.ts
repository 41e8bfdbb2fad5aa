export { Shelf } from './Shelf';
export { ContactSellerSlot } from './ContactSellerSlot';
