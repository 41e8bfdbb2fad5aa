import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/**
 * A local stand-in for https://www.googleapis.com/books/v1 (volumes search) and the
 * books.google.com cover host, answering in Google's response format from recorded fixtures:
 * fixtures/volumes-<q as slug>.json, or {"totalItems": 0} for any other q. Image links in the
 * fixtures point at books.google.com; they are rewritten to this server, which serves a PNG.
 * Run standalone for the e2e suite: `tsx fake-google-books.ts` (PORT, default 3199).
 */
const FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

export const slug = (q: string) =>
  q
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function loadFixtures(): Map<string, string> {
  const map = new Map<string, string>();
  for (const file of readdirSync(FIXTURES_DIR)) {
    const m = /^volumes-(.+)\.json$/.exec(file);
    if (m) map.set(m[1], readFileSync(`${FIXTURES_DIR}${file}`, 'utf8'));
  }
  return map;
}

function googleError(res: ServerResponse, code: number, message: string, reason: string) {
  const status =
    code === 400 ? 'INVALID_ARGUMENT' : code === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL';
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(
    JSON.stringify({
      error: { code, message, errors: [{ message, domain: 'global', reason }], status },
    }),
  );
}

export interface FakeGoogleBooks {
  /** Base URL to use as GOOGLE_BOOKS_URL. */
  url: string;
  /** Every volumes request received (path and query). */
  requests: URL[];
  /** How many cover images were served. */
  readonly coverRequests: number;
  /** Delay each answer (ms): simulates a slow remote. */
  delayMs: number;
  /** Answer every volumes request with this HTTP error (e.g. 503), or 0 for normal answers. */
  failWith: number;
  close(): Promise<void>;
}

export async function startFakeGoogleBooks(port = 0): Promise<FakeGoogleBooks> {
  const fixtures = loadFixtures();
  const cover = await sharp({
    create: { width: 128, height: 192, channels: 3, background: { r: 120, g: 60, b: 40 } },
  })
    .png()
    .toBuffer();
  const state = { requests: [] as URL[], delayMs: 0, failWith: 0, coverRequests: 0 };
  let origin = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/books/content') {
      state.coverRequests++;
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': cover.length });
      res.end(cover);
      return;
    }
    if (url.pathname !== '/volumes' || req.method !== 'GET') {
      googleError(res, 404, 'Not Found', 'notFound');
      return;
    }
    state.requests.push(url);
    if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
    if (res.destroyed) return;
    if (state.failWith) {
      googleError(res, state.failWith, 'Backend Error', 'backendError');
      return;
    }
    const q = url.searchParams.get('q');
    if (!q) {
      googleError(res, 400, 'Missing query.', 'queryRequired');
      return;
    }
    const max = Number(url.searchParams.get('maxResults') ?? 10);
    if (!Number.isInteger(max) || max < 0 || max > 40) {
      googleError(res, 400, "Invalid value at 'max_results'", 'invalid');
      return;
    }
    const raw = fixtures.get(slug(q)) ?? fixtures.get('empty')!;
    const body = JSON.parse(raw.replaceAll('http://books.google.com', origin)) as {
      totalItems: number;
      items?: unknown[];
    };
    if (body.items) body.items = body.items.slice(0, max);
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) googleError(res, 500, 'Internal Error', 'internalError');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeGoogleBooks = {
    url: origin,
    requests: state.requests,
    get coverRequests() {
      return state.coverRequests;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(v) {
      state.delayMs = v;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(v) {
      state.failWith = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fake = await startFakeGoogleBooks(Number(process.env.PORT ?? 3199));
  console.log(`fake Google Books at ${fake.url}`);
}
