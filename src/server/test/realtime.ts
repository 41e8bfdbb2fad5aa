import type { ClientFrame, Realtime, RealtimeEvent, WireEvent } from '../platform/realtime';

/**
 * A Realtime that records what a module publishes (chats, community), and lets a test play the service's
 * side: online members, client frames and presence changes. A double of our own interface: the
 * real socket delivery is tested in platform/realtime.
 */
export function createRecordingRealtime() {
  // Recorded as they travel, so that tests read any field.
  const toUsers: Array<{ userIds: string[]; event: WireEvent }> = [];
  const toTopic: Array<{
    topic: string;
    event: WireEvent;
    options?: { exceptUserIds?: readonly string[] };
  }> = [];
  const leftTopics: Array<{ userIds: string[]; topic: string }> = [];
  const topics = new Map<string, (userId: string, id: string) => Promise<boolean>>();
  const frames = new Map<string, (frame: ClientFrame) => void | Promise<void>>();
  const presence: Array<(userId: string, online: boolean) => void | Promise<void>> = [];
  const online = new Set<string>();
  const realtime: Realtime & { leaveTopic: NonNullable<Realtime['leaveTopic']> } = {
    async toUsers(userIds, event) {
      // The notification centre's own pushes are tested in offer-notifications.test.ts.
      if (event.type.startsWith('notification.')) return;
      toUsers.push({ userIds: [...userIds].sort(), event });
    },
    async toTopic(topic, event, options?: { exceptUserIds?: readonly string[] }) {
      toTopic.push({ topic, event, ...(options ? { options } : {}) });
    },
    async leaveTopic(userIds, topic) {
      leftTopics.push({ userIds: [...userIds], topic });
    },
    topic(kind, authorize) {
      topics.set(kind, authorize);
    },
    onFrame(type, handler) {
      frames.set(type, handler);
    },
    async isOnline(userId) {
      return online.has(userId);
    },
    async onlineAmong(userIds) {
      return new Set(userIds.filter((id) => online.has(id)));
    },
    onPresence(handler) {
      presence.push(handler);
    },
    async close() {},
  };
  return {
    realtime,
    toUsers,
    toTopic,
    leftTopics,
    topics,
    online,
    /** A client frame as the service hands it over; answers what was replied on the socket. */
    async frame(userId: string, data: Record<string, unknown>) {
      const replies: RealtimeEvent[] = [];
      await frames.get(String(data.type))?.({
        userId,
        socketId: `socket-${userId}`,
        data,
        reply: (event) => replies.push(event),
      });
      return replies;
    },
    async presenceChanged(userId: string, isOnline: boolean) {
      for (const handler of presence) await handler(userId, isOnline);
    },
    clear() {
      toUsers.length = 0;
      toTopic.length = 0;
      leftTopics.length = 0;
    },
  };
}
