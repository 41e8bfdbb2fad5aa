export { usePublicProfile } from './api';
