import { useCallback, useEffect, useRef, useState } from 'react';
// The server throttles typing frames with the same TYPING_THROTTLE_MS.
import { TYPING_SHOW_MS, TYPING_THROTTLE_MS } from '@shared/chatLimits';
import { roomTopic } from '@shared/realtime';
import {
  sendRealtime,
  useRealtimeEvent,
  useRealtimeTopic,
  type RealtimeEvent,
} from '../../lib/realtime';
import type { ChatUser } from './types';

export interface Presence {
  online: boolean;
  lastSeenAt: string | null;
}

/** Presence events since the page opened, by member id; room data answers for the others. */
export function usePresenceEvents(): Record<string, Presence> {
  const [map, setMap] = useState<Record<string, Presence>>({});
  useRealtimeEvent(
    'presence',
    useCallback(({ userId, online, lastSeenAt }: RealtimeEvent<'presence'>) => {
      setMap((m) => ({ ...m, [userId]: { online, lastSeenAt } }));
    }, []),
  );
  return map;
}

export const presenceOf = (user: ChatUser, events: Record<string, Presence>): Presence =>
  events[user.id] ?? { online: user.online, lastSeenAt: user.lastSeenAt };

/** The current time, renewed every `ms`, so relative times and typing marks age on screen. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * Typing in one room: subscribes to its topic, lists who else is typing (each mark expires by
 * itself), and `typing()` sends a frame at most every 2 s.
 */
export function useTyping(roomId: string, meId: string) {
  useRealtimeTopic(roomTopic(roomId));
  const [typists, setTypists] = useState<Record<string, { name: string; until: number }>>({});
  const lastSent = useRef(0);
  useEffect(() => {
    setTypists({});
    lastSent.current = 0;
  }, [roomId]);

  useRealtimeEvent(
    'chat.typing',
    useCallback(
      (event: RealtimeEvent<'chat.typing'>) => {
        if (event.roomId !== roomId || event.userId === meId) return;
        const name = event.displayName;
        setTypists((t) => ({ ...t, [event.userId]: { name, until: Date.now() + TYPING_SHOW_MS } }));
      },
      [roomId, meId],
    ),
  );

  // A message from a typist ends their mark at once.
  const stopped = useCallback((userId: string | null) => {
    if (!userId) return;
    setTypists((t) => {
      if (!t[userId]) return t;
      const { [userId]: _gone, ...rest } = t;
      return rest;
    });
  }, []);

  // Prune at the next expiry rather than ticking every second.
  useEffect(() => {
    const times = Object.values(typists).map((t) => t.until);
    if (!times.length) return;
    const timer = setTimeout(
      () =>
        setTypists((t) =>
          Object.fromEntries(Object.entries(t).filter(([, v]) => v.until > Date.now())),
        ),
      Math.max(0, Math.min(...times) - Date.now()) + 20,
    );
    return () => clearTimeout(timer);
  }, [typists]);
  const names = Object.values(typists).map((t) => t.name);

  const typing = useCallback(() => {
    const at = Date.now();
    if (at - lastSent.current < TYPING_THROTTLE_MS) return;
    if (sendRealtime({ type: 'chat.typing', roomId })) lastSent.current = at;
  }, [roomId]);

  return { names, typing, stopped };
}
