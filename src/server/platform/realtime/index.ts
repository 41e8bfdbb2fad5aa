import type { Realtime } from './types';
export type { Realtime, RealtimeEvent, ClientFrame, WireEvent } from './types';
export {
  createRealtime,
  type RealtimeObserver,
  type RealtimeOptions,
  type RealtimeService,
} from './service';
export { PayloadTooLargeError, MAX_PAYLOAD_BYTES, SESSION_ENDED_CHANNEL } from './bus';
export { CLOSE } from './types';

/** Delivers nothing and knows nobody online: for scripts and tests that need no sockets. */
export function createNullRealtime(): Realtime {
  return {
    async toUsers() {},
    async toTopic() {},
    async leaveTopic() {},
    topic() {},
    onFrame() {},
    async isOnline() {
      return false;
    },
    async onlineAmong() {
      return new Set();
    },
    onPresence() {},
    async close() {},
  };
}
