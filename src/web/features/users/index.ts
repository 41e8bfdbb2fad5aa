export { UserAvatar } from './UserAvatar';
