import WebSocket from 'ws';

/** A test client: a real socket with the frames it received, in order. */
export interface TestSocket {
  ws: WebSocket;
  frames: Record<string, unknown>[];
  /** The next frame matching `match` (already received or still to come). */
  next(
    match?: (frame: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Resolves with the close code once the socket closed. */
  closed: Promise<number>;
  send(frame: unknown): void;
}

export type Handshake =
  { opened: true; socket: TestSocket } | { opened: false; status: number; body: string };

/** Opens a socket to /api/realtime the way a browser tab does (cookie and Origin headers). */
export function openSocket(
  baseUrl: string,
  opts: { cookie?: string; origin?: string; autoPong?: boolean } = {},
): Promise<Handshake> {
  const url = `${baseUrl.replace(/^http/, 'ws')}/api/realtime`;
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  const ws = new WebSocket(url, {
    headers,
    origin: opts.origin,
    autoPong: opts.autoPong ?? true,
  });
  const frames: Record<string, unknown>[] = [];
  const waiters: {
    match: (f: Record<string, unknown>) => boolean;
    resolve: (f: Record<string, unknown>) => void;
  }[] = [];
  let seen = 0;
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Record<string, unknown>;
    frames.push(frame);
    const i = waiters.findIndex((w) => w.match(frame));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(frame);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const socket: TestSocket = {
    ws,
    frames,
    closed,
    next(match = () => true, timeoutMs = 3000) {
      const found = frames.slice(seen).find(match);
      if (found) {
        seen = frames.indexOf(found) + 1;
        return Promise.resolve(found);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching frame')), timeoutMs);
        waiters.push({
          match,
          resolve: (f) => {
            clearTimeout(timer);
            seen = frames.indexOf(f) + 1;
            resolve(f);
          },
        });
      });
    },
    send(frame) {
      ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    },
  };
  return new Promise((resolve) => {
    ws.once('open', () => resolve({ opened: true, socket }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve({ opened: false, status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ opened: false, status: res.statusCode ?? 0, body }));
    });
    ws.once('error', () => resolve({ opened: false, status: 0, body: '' }));
  });
}

/** Opens a socket that must be accepted. */
export async function mustOpen(
  baseUrl: string,
  opts: Parameters<typeof openSocket>[1],
): Promise<TestSocket> {
  const result = await openSocket(baseUrl, opts);
  if (!result.opened) throw new Error(`handshake refused: ${result.status} ${result.body}`);
  return result.socket;
}

export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds (presence is written asynchronously). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 3000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await wait(20);
  }
}
