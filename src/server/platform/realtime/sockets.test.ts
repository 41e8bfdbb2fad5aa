import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOSE, createSocketHub, SESSION_RECHECK_MS } from './sockets';

/** Just what the hub uses of a ws socket. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  closedWith: number | null = null;
  send() {}
  ping() {}
  close(code: number) {
    if (this.readyState !== this.OPEN) return;
    this.closedWith = code;
    this.readyState = 3;
    this.emit('close');
  }
  terminate() {
    this.close(1006);
  }
  frame(type: string) {
    this.emit('message', Buffer.from(JSON.stringify({ type })), false);
  }
}

const hour = () => new Date(Date.now() + 3_600_000);

function hub(lookup: (sessionId: string) => Date | null = hour) {
  let live = true;
  const lookups: string[] = [];
  const handled: string[] = [];
  const sockets = createSocketHub({
    processId: 'test',
    limits: {
      framesPerSecond: 100,
      burst: 100,
      maxTopics: 5,
      maxTopicsPerMember: 5,
      maxSocketsPerMember: 5,
      maxQueued: 50,
      maxBufferedBytes: 1 << 20,
    },
    onFirstSocket() {},
    onLastSocket() {},
    async sessionExpiry(sessionId) {
      lookups.push(sessionId);
      return lookup(sessionId);
    },
    sessionNewsLive: () => live,
    log: { warn() {} },
  });
  sockets.frameHandlers.set('work', async (frame) => void handled.push(frame.userId));
  const open = (userId: string, sessionId: string, expiresAt = hour()) => {
    const ws = new FakeSocket();
    sockets.accept(ws as unknown as WebSocket, userId, { id: sessionId, expiresAt });
    return ws;
  };
  const settled = () => new Promise((r) => setTimeout(r, 20));
  return { open, lookups, handled, settled, setLive: (v: boolean) => (live = v) };
}

afterEach(() => vi.useRealTimers());

describe("a frame's session check (docs/decisions/0077)", () => {
  it('asks the database only while session news cannot arrive', async () => {
    const h = hub();
    const ws = h.open('ada', 's1');
    for (let i = 0; i < 3; i++) ws.frame('work');
    await h.settled();
    expect(h.handled).toHaveLength(3);
    expect(h.lookups).toEqual([]);
    // LISTEN down: the news could be missed, so every frame checks.
    h.setLive(false);
    ws.frame('work');
    ws.frame('work');
    await h.settled();
    expect(h.handled).toHaveLength(5);
    expect(h.lookups).toEqual(['s1', 's1']);
  });

  it('checks again once the session reaches its expiry, and closes the socket if it ended', async () => {
    const h = hub(() => null);
    const ws = h.open('bea', 's2', new Date(Date.now() - 1));
    ws.frame('work');
    await h.settled();
    expect(h.lookups).toEqual(['s2']);
    expect(h.handled).toEqual([]);
    expect(ws.closedWith).toBe(CLOSE.sessionEnded);
  });

  it('checks again SESSION_RECHECK_MS after the last check, however live the news', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const h = hub();
    const ws = h.open('cleo', 's3', new Date(Date.now() + 24 * 3_600_000));
    ws.frame('work');
    await h.settled();
    expect(h.lookups).toEqual([]);
    vi.setSystemTime(Date.now() + SESSION_RECHECK_MS + 1);
    ws.frame('work');
    ws.frame('work');
    await h.settled();
    // One query, then trusted again for the next SESSION_RECHECK_MS.
    expect(h.lookups).toEqual(['s3']);
    expect(h.handled).toHaveLength(3);
  });
});
