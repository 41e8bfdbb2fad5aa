// STUB (to be replaced by the realtime branch): the browser side of the realtime service.
// One WebSocket per tab at /api/realtime while a member is signed in; reconnects with backoff
// and jitter; after a reconnect every `onReconnect` handler runs so features fetch what they
// missed (e.g. messages after the last one they hold).
import { useEffect } from 'react';

export interface RealtimeEvent {
  type: string;
  [key: string]: unknown;
}
export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'closed';

/** Runs `handler` for every event of this type while the component is mounted. */
export function useRealtimeEvent(type: string, handler: (event: RealtimeEvent) => void): void {
  useEffect(() => {
    void type;
    void handler;
  }, [type, handler]);
}

/** Subscribes this tab to a topic (`kind:id`) while mounted; null subscribes to nothing. */
export function useRealtimeTopic(topic: string | null): void {
  useEffect(() => {
    void topic;
  }, [topic]);
}

/** Runs `handler` after every reconnect (not the first connect) while mounted. */
export function useRealtimeReconnect(handler: () => void): void {
  useEffect(() => {
    void handler;
  }, [handler]);
}

/** Sends a frame if the socket is open; returns false otherwise (frames are best effort). */
export function sendRealtime(frame: RealtimeEvent): boolean {
  void frame;
  return false;
}

export function useRealtimeStatus(): RealtimeStatus {
  return 'idle';
}
