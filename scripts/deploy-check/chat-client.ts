/**
 * A member's chat as the web client keeps it (src/web/lib/realtime.ts, and the chats page's
 * useChatEvents): one socket to /api/realtime; `chat.message` events merged into the room's
 * messages by id; when the socket closes, a new one after the web client's own reconnect delay
 * (reconnectDelay: backoff with jitter, 0.5-5 s after 1012), then every message after the last
 * one held fetched over HTTP (GET …/messages?after=<id>, 200 a page). 4401 (session ended) stops.
 */
import WebSocket from 'ws';
import type { ChatMessage } from '../../src/shared/schemas/chats';
import { reconnectDelay } from '../../src/web/lib/realtime';
import { ORIGIN } from './cluster';

const CATCH_UP_ROUNDS = 20;

export class ChatClient {
  /** The room's messages held, by id (what the member's screen would show). */
  readonly messages = new Map<string, ChatMessage>();
  /** How often each message id came over a socket: more than once is a duplicate delivery. */
  readonly deliveries = new Map<string, number>();
  /** Close codes seen, in order (1006: the connection was cut or the handshake refused). */
  readonly closes: number[] = [];
  reconnects = 0;
  catchUps = 0;
  private socket: WebSocket | null = null;
  private wanted = false;
  private attempt = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private catchingUp: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly cookie: string,
    readonly roomId: string,
    /** http://… the member's browser talks to: the proxy, or one instance straight. */
    readonly baseUrl: string,
  ) {}

  /** Opens the socket; resolves on the first open. */
  start(): Promise<void> {
    this.wanted = true;
    return new Promise((resolve, reject) => this.connect(resolve, reject));
  }

  stop() {
    this.wanted = false;
    clearTimeout(this.retry);
    this.socket?.terminate();
    this.socket = null;
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Resolves with the next close code of the current socket. */
  nextClose(): Promise<number> {
    const ws = this.socket;
    if (!ws) return Promise.resolve(this.closes.at(-1) ?? 1006);
    return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
  }

  /** Settles once the catch-up in progress (if any) is done. */
  settled(): Promise<void> {
    return this.catchingUp;
  }

  private connect(opened?: () => void, failed?: (err: Error) => void) {
    this.retry = undefined;
    if (!this.wanted) return;
    const ws = new WebSocket(`${this.baseUrl.replace(/^http/, 'ws')}/api/realtime`, {
      headers: { cookie: this.cookie },
      origin: ORIGIN,
      perMessageDeflate: false,
    });
    this.socket = ws;
    let everOpen = false;
    ws.on('open', () => {
      everOpen = true;
      if (opened) opened();
      else {
        this.reconnects++;
        this.catchingUp = this.catchUp();
      }
    });
    ws.on('message', (data) => this.onEvent(String(data)));
    ws.on('error', () => {});
    // A refused handshake (503 while an instance drains) is what a browser reports as 1006.
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      ws.terminate();
    });
    ws.on('close', (code) => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.closes.push(code);
      if (!everOpen && failed) return failed(new Error(`socket of ${this.id} did not open`));
      if (!this.wanted) return;
      const delay = reconnectDelay(code, this.attempt);
      if (delay === null) return this.stop();
      // A socket that opened and then closed starts the backoff over (the web client does after 10 s).
      this.attempt = everOpen ? 0 : Math.min(this.attempt + 1, 16);
      this.retry = setTimeout(() => this.connect(), delay);
    });
  }

  private onEvent(raw: string) {
    const event = JSON.parse(raw) as { type: string; roomId?: string; message?: ChatMessage };
    if (event.type !== 'chat.message' || event.roomId !== this.roomId) return;
    if (!event.message) {
      this.catchingUp = this.catchingUp.then(() => this.catchUp());
      return;
    }
    this.deliveries.set(event.message.id, (this.deliveries.get(event.message.id) ?? 0) + 1);
    this.messages.set(event.message.id, event.message);
  }

  /** The newest message held, in the server's order (creation time, then id). */
  last(): ChatMessage | undefined {
    let newest: ChatMessage | undefined;
    for (const m of this.messages.values()) {
      if (
        !newest ||
        m.createdAt > newest.createdAt ||
        (m.createdAt === newest.createdAt && m.id > newest.id)
      )
        newest = m;
    }
    return newest;
  }

  /** Everything after the newest message held, over HTTP; a failed request is tried again. */
  private async catchUp(): Promise<void> {
    this.catchUps++;
    for (let round = 0, failures = 0; round < CATCH_UP_ROUNDS;) {
      const after = this.last();
      const url = `${this.baseUrl}/api/chats/rooms/${this.roomId}/messages${after ? `?after=${after.id}` : ''}`;
      const res = await fetch(url, { headers: { cookie: this.cookie } }).catch(() => null);
      if (!res || res.status !== 200) {
        await res?.arrayBuffer();
        if (++failures > 10) throw new Error(`catch-up of ${this.id} failed: ${res?.status}`);
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const page = (await res.json()) as { items: ChatMessage[]; hasMore: boolean };
      for (const m of page.items) this.messages.set(m.id, m);
      round++;
      if (!page.hasMore || !page.items.length) return;
    }
  }
}
