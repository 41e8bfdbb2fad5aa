// The watching feature's public surface: the watch button (cards, book page), the seller's count
// and holiday notices, and the holiday settings. The watched-listings page is loaded lazily by the
// router (never from here).
export { WatchButton } from './WatchButton';
export { WatcherCount, SellerAwayNotice } from './Notices';
export { HolidaySettings } from './HolidaySettings';
export { holidayReplyText } from './holidayReply';
