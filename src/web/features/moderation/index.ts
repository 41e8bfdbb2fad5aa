export { ReportDialog, ReportMenu, type ReportTarget } from './ReportDialog';
export { ReportButton } from './ReportButton';
export { ProfileReviews } from './ProfileReviews';
export { ReviewTradeButton, ReviewAction } from './ReviewTradeButton';
export { useIsAdmin } from './api';
