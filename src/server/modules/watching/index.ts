/** The watching module's contract: its alerts (seed). */
export { createWatchAlerts, defineWatchingTypes } from './alerts';
