export { ReportDialog, ReportButton, ReportMenu, type ReportTarget } from './ReportDialog';
export { ProfileReviews } from './ProfileReviews';
export { ReviewTradeButton, ReviewAction } from './ReviewTradeButton';
export { useIsAdmin } from './api';
