// Loaded after the page (see providers.tsx); the build resolves every other import of the package
// to its store alone (vite.config.ts).
export { Notifications as default } from '@mantine/notifications';
