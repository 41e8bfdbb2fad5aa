// STUB (to be replaced by the realtime branch): delivers nothing, knows nobody online. It lets
// features code against the contract in ./types while the service is being built.
import type { Realtime } from './types';
export type { Realtime, RealtimeEvent, ClientFrame } from './types';

export function createNullRealtime(): Realtime {
  return {
    async toUsers() {},
    async toTopic() {},
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
