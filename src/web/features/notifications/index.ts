// The notifications feature's public surface. The bell and the page are loaded lazily (the shell
// and the router import their files directly); the settings section is small.
export { NotificationSettings } from './NotificationSettings';
