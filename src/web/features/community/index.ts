// The community feature's public surface; its pages are loaded lazily by the router.
export { UserPostsSection } from './UserPostsSection';
