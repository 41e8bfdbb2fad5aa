export { ReportDialog, type ReportTarget } from './ReportDialog';
export { ReportMenu } from './ReportMenu';
export { ReportButton } from './ReportButton';
export { ProfileReviews } from './ProfileReviews';
export { kindName } from './kinds';
export { ReviewTradeButton, ReviewAction } from './ReviewTradeButton';
// Kept here for the features that ask it of moderation; the session answers it.
export { useIsAdmin } from '../../lib/session';
