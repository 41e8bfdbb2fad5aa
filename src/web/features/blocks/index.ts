export { BlockControl, BlockDialog, useBlockMenu } from './BlockControl';
export { BlockedMembersSection } from './BlockedMembersSection';
