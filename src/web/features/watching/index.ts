// The watching feature's public surface: the watch button (cards, book page), the seller's count
// and holiday notices, the holiday settings, and the watches list (app/pages/WatchesPage.tsx).
export { WatchButton } from './WatchButton';
export { WatcherCount, SellerAwayNotice } from './Notices';
export { useSellerAwayUntil, useWatches } from './api';
export { HolidaySettings } from './HolidaySettings';
export { holidayReplyText } from './holidayReply';
