import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL connections the server keeps at most (DATABASE_POOL_SIZE, 10). */
  databasePoolSize: number;
  /** Public origin used in e-mail links and OAuth redirects. */
  publicUrl: string;
  /**
   * Origins whose pages may change state: PUBLIC_URL's, and for a localhost address its loopback
   * twins too, so a newcomer opening http://127.0.0.1:3000 is not refused.
   */
  trustedOrigins: string[];
  smtpUrl?: string;
  mailFrom: string;
  supportEmail: string;
  logLevel: string;
  trustProxy: boolean;
  bodyLimit: number;
  /** Sign-in, sign-up, reset and verification attempts allowed per minute from one address. */
  authRateLimitPerMinute: number;
  /**
   * Attempts allowed per hour against one account, from any address: failed sign-ins, sign-ups,
   * reset and verification e-mails per address, password checks per member.
   */
  authAccountRateLimitPerHour: number;
  authSecret: string;
  google?: { clientId: string; clientSecret: string; issuer: string };
  googleBooks: { baseUrl: string; apiKey?: string; enabled: boolean; timeoutMs: number };
  /** Serve the built single-page app from this folder (omitted in tests and dev). */
  webDir?: string;
  /** True when the public URL is HTTPS; drives Secure cookies. */
  secureCookies: boolean;
  /** What one counted click on an ad costs its author, in the ad's currency (ADS_COST_PER_CLICK). */
  adsCostPerClick: number;
  /**
   * How long each process serves sponsored slots from its in-memory list of running ads before
   * reading it again (ADS_SERVING_CACHE_MS; 0 reads it on every request).
   */
  adsServingCacheMs: number;
  /**
   * How long an anonymous library search is served from memory (PUBLIC_READ_CACHE_MS, 2000;
   * 0 computes every request): see platform/read-cache.ts.
   */
  publicReadCacheMs: number;
  /**
   * Serve the mail outbox at /api/dev/mail and /dev/mail (DEV_MAIL_VIEWER, off unless set; npm
   * start and npm run dev turn it on outside production). Even on, only direct loopback requests
   * that came through no proxy are answered.
   */
  devMailViewer: boolean;
}

type Env = Record<string, string | undefined>;

/** Secrets missing from the environment are generated once and kept in DATA_DIR. */
export function loadSecrets(dataDir: string): { authSecret: string } {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { authSecret?: string };
    if (stored.authSecret) return { authSecret: stored.authSecret };
  }
  const secrets = { authSecret: randomBytes(32).toString('base64url') };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}

function int(value: string | undefined, fallback: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : fallback;
}

/** ADS_COST_PER_CLICK: a non-negative amount with at most 2 decimals; 0.20 otherwise. */
function costPerClick(value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(n) || n < 0) return 0.2;
  return Math.round(n * 100) / 100;
}

export function trustedOriginsOf(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  const loopback = ['localhost', '127.0.0.1', '[::1]'];
  if (!loopback.includes(url.hostname)) return [url.origin];
  return loopback.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env.PORT, 3000);
  const host = env.HOST ?? '0.0.0.0';
  const dataDir = resolve(env.DATA_DIR ?? './data');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const authSecret = env.AUTH_SECRET ?? overrides.authSecret ?? loadSecrets(dataDir).authSecret;
  const google =
    env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          issuer: (env.GOOGLE_ISSUER ?? 'https://accounts.google.com').replace(/\/$/, ''),
        }
      : undefined;
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: Math.max(1, int(env.DATABASE_POOL_SIZE, 10)),
    publicUrl,
    trustedOrigins: trustedOriginsOf(publicUrl),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Scaffale <no-reply@scaffale.local>',
    supportEmail: env.SUPPORT_EMAIL ?? 'support@scaffale.local',
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    bodyLimit: int(env.BODY_LIMIT_BYTES, 1024 * 1024),
    authRateLimitPerMinute: Math.max(1, int(env.AUTH_RATE_LIMIT_PER_MINUTE, 10)),
    authAccountRateLimitPerHour: Math.max(1, int(env.AUTH_ACCOUNT_RATE_LIMIT_PER_HOUR, 20)),
    authSecret,
    google,
    googleBooks: {
      baseUrl: (env.GOOGLE_BOOKS_URL ?? 'https://www.googleapis.com/books/v1').replace(/\/$/, ''),
      apiKey: env.GOOGLE_BOOKS_API_KEY || undefined,
      enabled: env.GOOGLE_BOOKS_ENABLED !== 'false',
      timeoutMs: int(env.GOOGLE_BOOKS_TIMEOUT_MS, 2500),
    },
    secureCookies: publicUrl.startsWith('https://'),
    adsCostPerClick: costPerClick(env.ADS_COST_PER_CLICK),
    adsServingCacheMs: Math.max(0, int(env.ADS_SERVING_CACHE_MS, 2000)),
    publicReadCacheMs: Math.max(0, int(env.PUBLIC_READ_CACHE_MS, 2000)),
    devMailViewer: env.DEV_MAIL_VIEWER === 'true' || env.DEV_MAIL_VIEWER === '1',
    ...overrides,
    ...(overrides.publicUrl && !overrides.trustedOrigins
      ? { trustedOrigins: trustedOriginsOf(overrides.publicUrl) }
      : {}),
  };
}
