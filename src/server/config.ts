import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

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
  /**
   * The e2e test clock (TEST_CLOCK, off): the app's clock runs at an offset that
   * POST /api/dev/clock moves, from direct loopback requests only; the background jobs and the
   * e-mail digests then run every second instead of every minute. Set only by playwright.config.ts;
   * the server refuses to start with it when NODE_ENV=production (decision 0069).
   */
  testClock: boolean;
  /** Server processes sharing the port (WEB_CONCURRENCY, 1; above 1 needs DATABASE_URL). */
  webConcurrency: number;
  /** Where uploads are kept: local disk under DATA_DIR/uploads, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** GET /metrics: off, open (development, tests) or behind a bearer token. */
  metrics: MetricsConfig;
  /** Logs as JSON lines, or pretty for a person at a terminal (LOG_FORMAT). */
  logPretty: boolean;
  /**
   * SIGTERM (docs/operations.md, docs/decisions/0062): /api/ready answers 503 for DRAIN_DELAY_MS
   * (0) while the process still accepts, then it stops accepting and gives requests in flight
   * DRAIN_TIMEOUT_MS (10000) to finish before cutting them.
   */
  drain: { delayMs: number; timeoutMs: number };
  /** In-app payments through Stripe Connect (docs/payments.md); off when no secret key is set. */
  payments?: PaymentsConfig;
}

export interface PaymentsConfig {
  secretKey: string;
  webhookSecret: string;
  publishableKey?: string;
  /** Where the Stripe client sends requests; undefined for Stripe's own API (tests: a local fake). */
  apiUrl?: string;
  /** The buyer-protection fee: a percentage of books and shipping, plus a fixed part in cents. */
  buyerFeePercent: number;
  buyerFeeFixedCents: number;
  /** Hours the buyer has to pay a deal by post once the seller accepted; then it is cancelled. */
  payWithinHours: number;
  /** The country of sellers' connected accounts (ISO 3166-1 alpha-2). */
  accountCountry: string;
}

export type StorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

export interface S3Settings {
  bucket: string;
  region: string;
  /** Empty for AWS S3 itself; the server's URL for MinIO, Garage, R2... */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /**
   * Where browsers fetch the bucket's files (the bucket's public address or a CDN). When set,
   * /uploads/<key> redirects there; when not, the app streams the files from the bucket.
   */
  publicUrl?: string;
}

export type MetricsConfig = { enabled: false } | { enabled: true; token?: string };

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

/** A value left empty counts as not set, as it does in `.env.example`. */
const unset = (value: string | undefined) => value === undefined || value.trim() === '';

/** A whole number (at least `min`); `fallback` when not set. */
const int = (fallback: number, min = Number.MIN_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (unset(value)) return Math.max(min, fallback);
      if (!/^\s*-?\d+\s*$/.test(value!)) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number (got "${value}")` });
        return z.NEVER;
      }
      return Math.max(min, Number.parseInt(value!, 10));
    });

/** true or 1, false or 0; `fallback` when not set. */
const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (unset(value)) return fallback;
      const v = value!.trim().toLowerCase();
      if (v === 'true' || v === '1') return true;
      if (v === 'false' || v === '0') return false;
      ctx.addIssue({ code: 'custom', message: `must be true or false (got "${value}")` });
      return z.NEVER;
    });

/** Text, without a trailing slash and checked when a `url`; `fallback` when not set. */
function text(fallback: string, opts?: { url?: boolean }): z.ZodType<string, string | undefined>;
function text(
  fallback: undefined,
  opts?: { url?: boolean },
): z.ZodType<string | undefined, string | undefined>;
function text(
  fallback: string | undefined,
  opts: { url?: boolean } = {},
): z.ZodType<string | undefined, string | undefined> {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (unset(value)) return fallback;
      if (!opts.url) return value!;
      if (!URL.canParse(value!) || !/^https?:$/.test(new URL(value!).protocol)) {
        ctx.addIssue({ code: 'custom', message: `must be an http or https URL (got "${value}")` });
        return z.NEVER;
      }
      return value!.replace(/\/$/, '');
    });
}

/** A non-negative amount, rounded to cents (ADS_COST_PER_CLICK). */
const amount = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (unset(value)) return fallback;
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be an amount of 0 or more (got "${value}")`,
        });
        return z.NEVER;
      }
      return Math.round(n * 100) / 100;
    });

/**
 * Every environment variable the server reads, with its default (`.env.example` lists them with
 * the same defaults). A bad value stops the server with a message naming the variable.
 */
export const envSchema = z.object({
  PORT: int(3000),
  HOST: text('0.0.0.0'),
  DATA_DIR: text('./data'),
  PUBLIC_URL: text(undefined, { url: true }),
  DATABASE_URL: text(undefined),
  DATABASE_POOL_SIZE: int(10, 1),
  WEB_CONCURRENCY: int(1),
  DRAIN_DELAY_MS: int(0, 0),
  DRAIN_TIMEOUT_MS: int(10_000, 1),
  WEB_DIR: text(undefined),
  AUTH_SECRET: text(undefined),
  LOG_LEVEL: text('info'),
  TRUST_PROXY: flag(false),
  BODY_LIMIT_BYTES: int(1024 * 1024),
  AUTH_RATE_LIMIT_PER_MINUTE: int(10, 1),
  AUTH_ACCOUNT_RATE_LIMIT_PER_HOUR: int(20, 1),
  SMTP_URL: text(undefined),
  MAIL_FROM: text('Scaffale <no-reply@scaffale.local>'),
  SUPPORT_EMAIL: text('support@scaffale.local'),
  DEV_MAIL_VIEWER: flag(false),
  TEST_CLOCK: flag(false),
  GOOGLE_CLIENT_ID: text(undefined),
  GOOGLE_CLIENT_SECRET: text(undefined),
  GOOGLE_ISSUER: text('https://accounts.google.com', { url: true }),
  GOOGLE_BOOKS_ENABLED: flag(true),
  GOOGLE_BOOKS_URL: text('https://www.googleapis.com/books/v1', { url: true }),
  GOOGLE_BOOKS_API_KEY: text(undefined),
  GOOGLE_BOOKS_TIMEOUT_MS: int(2500),
  ADS_COST_PER_CLICK: amount(0.2),
  ADS_SERVING_CACHE_MS: int(2000, 0),
  PUBLIC_READ_CACHE_MS: int(2000, 0),
  STORAGE: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (unset(value)) return 'local' as const;
      const v = value!.trim().toLowerCase();
      if (v === 'local' || v === 's3') return v;
      ctx.addIssue({ code: 'custom', message: `must be local or s3 (got "${value}")` });
      return z.NEVER;
    }),
  S3_BUCKET: text(undefined),
  S3_REGION: text('us-east-1'),
  S3_ENDPOINT: text(undefined, { url: true }),
  S3_ACCESS_KEY_ID: text(undefined),
  S3_SECRET_ACCESS_KEY: text(undefined),
  S3_FORCE_PATH_STYLE: flag(false),
  S3_PUBLIC_URL: text(undefined, { url: true }),
  METRICS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (unset(value)) return undefined;
      const v = value!.trim().toLowerCase();
      if (v === 'on' || v === 'off') return v;
      ctx.addIssue({ code: 'custom', message: `must be on or off (got "${value}")` });
      return z.NEVER;
    }),
  METRICS_TOKEN: text(undefined),
  LOG_FORMAT: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (unset(value)) return 'auto' as const;
      const v = value!.trim().toLowerCase();
      if (v === 'auto' || v === 'json' || v === 'pretty') return v;
      ctx.addIssue({ code: 'custom', message: `must be auto, json or pretty (got "${value}")` });
      return z.NEVER;
    }),
  STRIPE_SECRET_KEY: text(undefined),
  STRIPE_WEBHOOK_SECRET: text(undefined),
  STRIPE_PUBLISHABLE_KEY: text(undefined),
  STRIPE_API_URL: text(undefined, { url: true }),
  STRIPE_ACCOUNT_COUNTRY: text('IT'),
  PAYMENTS_BUYER_FEE_PERCENT: amount(5),
  PAYMENTS_BUYER_FEE_FIXED: int(70, 0),
  PAYMENTS_PAY_WITHIN_HOURS: int(48, 1),
  NODE_ENV: text('development'),
});
export type Env = z.output<typeof envSchema>;

/** The environment, checked: every problem is reported at once, each naming its variable. */
export function parseEnv(env: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')} ${issue.message}`);
  throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
}

/** STORAGE=s3 needs S3_BUCKET; the SDK finds credentials itself when the keys are not set. */
export function storageConfigOf(env: Env): StorageConfig {
  if (env.STORAGE === 'local') return { kind: 'local' };
  if (!env.S3_BUCKET)
    throw new Error('Invalid configuration:\n  S3_BUCKET must be set when STORAGE=s3');
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY)
    throw new Error(
      'Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together',
    );
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    publicUrl: env.S3_PUBLIC_URL,
  };
}

/** Payments are on with a secret key, which needs the webhook's secret to hear of payments. */
export function paymentsConfigOf(env: Env): PaymentsConfig | undefined {
  if (!env.STRIPE_SECRET_KEY) return undefined;
  if (!env.STRIPE_WEBHOOK_SECRET)
    throw new Error(
      'Invalid configuration:\n  STRIPE_WEBHOOK_SECRET must be set when STRIPE_SECRET_KEY is',
    );
  if (env.PAYMENTS_BUYER_FEE_PERCENT > 50)
    throw new Error('Invalid configuration:\n  PAYMENTS_BUYER_FEE_PERCENT must be at most 50');
  if (!/^[A-Za-z]{2}$/.test(env.STRIPE_ACCOUNT_COUNTRY))
    throw new Error('Invalid configuration:\n  STRIPE_ACCOUNT_COUNTRY must be a two-letter code');
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY,
    apiUrl: env.STRIPE_API_URL,
    buyerFeePercent: env.PAYMENTS_BUYER_FEE_PERCENT,
    buyerFeeFixedCents: env.PAYMENTS_BUYER_FEE_FIXED,
    payWithinHours: env.PAYMENTS_PAY_WITHIN_HOURS,
    accountCountry: env.STRIPE_ACCOUNT_COUNTRY.toUpperCase(),
  };
}

/**
 * Metrics are open in development and tests, behind METRICS_TOKEN when one is set, and off in
 * production otherwise (METRICS=on opens them there, for a port only the scraper reaches).
 */
export function metricsConfigOf(env: Env): MetricsConfig {
  if (env.METRICS === 'off') return { enabled: false };
  if (env.METRICS_TOKEN) return { enabled: true, token: env.METRICS_TOKEN };
  if (env.METRICS === 'on' || env.NODE_ENV !== 'production') return { enabled: true };
  return { enabled: false };
}

export function trustedOriginsOf(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  const loopback = ['localhost', '127.0.0.1', '[::1]'];
  if (!loopback.includes(url.hostname)) return [url.origin];
  return loopback.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
}

export function loadConfig(
  raw: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const env = parseEnv(raw);
  if (env.TEST_CLOCK && env.NODE_ENV === 'production')
    throw new Error(
      'Invalid configuration:\n  TEST_CLOCK must not be set when NODE_ENV=production',
    );
  const dataDir = resolve(env.DATA_DIR);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  const authSecret = env.AUTH_SECRET ?? overrides.authSecret ?? loadSecrets(dataDir).authSecret;
  const google =
    env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          issuer: env.GOOGLE_ISSUER,
        }
      : undefined;
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    publicUrl,
    trustedOrigins: trustedOriginsOf(publicUrl),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    supportEmail: env.SUPPORT_EMAIL,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    bodyLimit: env.BODY_LIMIT_BYTES,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    authAccountRateLimitPerHour: env.AUTH_ACCOUNT_RATE_LIMIT_PER_HOUR,
    authSecret,
    google,
    googleBooks: {
      baseUrl: env.GOOGLE_BOOKS_URL,
      apiKey: env.GOOGLE_BOOKS_API_KEY,
      enabled: env.GOOGLE_BOOKS_ENABLED,
      timeoutMs: env.GOOGLE_BOOKS_TIMEOUT_MS,
    },
    webDir: env.WEB_DIR,
    secureCookies: publicUrl.startsWith('https://'),
    adsCostPerClick: env.ADS_COST_PER_CLICK,
    adsServingCacheMs: env.ADS_SERVING_CACHE_MS,
    publicReadCacheMs: env.PUBLIC_READ_CACHE_MS,
    devMailViewer: env.DEV_MAIL_VIEWER,
    testClock: env.TEST_CLOCK,
    webConcurrency: env.WEB_CONCURRENCY,
    storage: storageConfigOf(env),
    metrics: metricsConfigOf(env),
    drain: { delayMs: env.DRAIN_DELAY_MS, timeoutMs: env.DRAIN_TIMEOUT_MS },
    payments: paymentsConfigOf(env),
    // Pretty for a person: asked for (npm run dev does), or auto and stdout is a terminal.
    logPretty:
      env.LOG_FORMAT === 'pretty' ||
      (env.LOG_FORMAT === 'auto' && !!process.stdout.isTTY && env.NODE_ENV !== 'test'),
    ...overrides,
    ...(overrides.publicUrl && !overrides.trustedOrigins
      ? { trustedOrigins: trustedOriginsOf(overrides.publicUrl) }
      : {}),
  };
}
