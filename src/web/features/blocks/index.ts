export { BlockControl, BlockDialog, BlockedNotice, useBlockMenu } from './BlockControl';
export { useBlockState } from './api';
export { BlockedMembersSection } from './BlockedMembersSection';
