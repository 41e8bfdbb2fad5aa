/** The profiles module's contract: the signed-in member, avatars, holidays and their replies. */
export { avatarSeedOf, loadMe } from './service';
export { claimHolidayReply, endHolidays, holidayRepliesTo } from './holiday';
