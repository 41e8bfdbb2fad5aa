export { UserAvatar } from './UserAvatar';
export { usePublicProfile } from './api';
