// The accounts feature's public surface. Pages are loaded lazily by the router (never from here),
// so importing this file from the shell adds only these small pieces to the first download.
export { safeRedirectPath, dashboardPath } from './safeRedirect';
export { ProfileGate } from './ProfileGate';
export { savePreferredLanguage } from './api';
