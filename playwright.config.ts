import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// A fresh embedded database for every run.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'scaffale-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// Google sign-in runs against a local OpenID Connect provider (scripts/oidc-provider.ts), by
// default on E2E_PORT + 99 (3199 beside 3100), so parallel runs on other ports do not collide.
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? port + 99);
const google = {
  GOOGLE_CLIENT_ID: 'scaffale-e2e',
  GOOGLE_CLIENT_SECRET: 'scaffale-e2e-secret',
  GOOGLE_ISSUER: `http://127.0.0.1:${oidcPort}`,
};
// Catalogue search answers from a local Google Books stand-in with recorded fixtures
// (src/server/test/google-books/fake-google-books.ts), by default on E2E_PORT + 98.
const booksPort = Number(process.env.E2E_BOOKS_PORT ?? port + 98);
const googleBooksUrl = `http://127.0.0.1:${booksPort}`;
// In-app payments (issue 36) run on an app of their own with payments on (E2E_PORT + 96), its
// Stripe a local stand-in speaking Stripe's protocol (src/server/test/stripe/
// fake-stripe.ts, E2E_PORT + 97) that sends its signed events to that app: the other journeys
// keep payments off, as the embedded default has them.
const paymentsPort = Number(process.env.E2E_PAYMENTS_PORT ?? port + 96);
const paymentsURL = `http://127.0.0.1:${paymentsPort}`;
process.env.E2E_PAYMENTS_URL = paymentsURL;
const stripeUrl = `http://127.0.0.1:${Number(process.env.E2E_STRIPE_PORT ?? port + 97)}`;
const stripe = { STRIPE_SECRET_KEY: 'sk_test_e2e', STRIPE_WEBHOOK_SECRET: 'whsec_e2e' };
const paymentsDataDir =
  process.env.E2E_PAYMENTS_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'scaffale-e2e-payments-'));
process.env.E2E_PAYMENTS_DATA_DIR = paymentsDataDir;

/** The app as every journey runs it (the payments app changes its port, data and Stripe). */
const appEnv = {
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: baseURL,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SUPPORT_EMAIL: 'support@scaffale.test',
  // Journeys read confirmation and reset links from the outbox.
  DEV_MAIL_VIEWER: 'true',
  // The holiday journey passes a date on the running server (POST /api/dev/clock, decision
  // 0069); refused by the server when NODE_ENV=production.
  TEST_CLOCK: 'true',
  // Every journey signs in from 127.0.0.1; the API suite tests the real limits.
  AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  AUTH_ACCOUNT_RATE_LIMIT_PER_HOUR: '1000',
  // The contact journeys each send from an address of their own (X-Forwarded-For), so
  // per-address allowances are never shared between tests or repeats.
  TRUST_PROXY: 'true',
  GOOGLE_BOOKS_URL: googleBooksUrl,
  ...google,
};
const appCommand = `node ${process.env.BUILD_DIR ?? 'dist'}/server/main.js`;

export default defineConfig({
  testDir: 'e2e',
  // Tests of a file spread over both workers, except the files marked serial (one journey of
  // several steps with shared members): the two longest files alone held one worker for minutes.
  fullyParallel: true,
  workers: 2,
  // No retries, in CI too: a journey that fails once is a bug to fix (issue 24). Each journey
  // has its own members and listings, waits for what a person sees, and uses the page's clock
  // where time matters.
  retries: 0,
  // A journey's budget on a 2-core machine that may be busy with other work: under a load average
  // of 20 the longest took close to 70 s. A test that passes is not slowed by it.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    locale: 'it-IT',
    // A trace records every step's DOM and screenshot, for every journey, to keep the failing
    // ones: `npm test` turns it off (E2E_TRACE=off), since CI shows a failure's text alone and
    // every journey pays for the recording; a run by hand keeps it.
    trace: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'npx tsx scripts/oidc-provider.ts',
      url: `${google.GOOGLE_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...google,
        E2E_OIDC_PORT: String(oidcPort),
        OIDC_REDIRECT_URI: `${baseURL}/api/auth/callback/google`,
      },
    },
    {
      command: 'npx tsx src/server/test/google-books/fake-google-books.ts',
      url: `${googleBooksUrl}/volumes?q=ping`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: String(booksPort) },
    },
    {
      command: appCommand,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: appEnv,
    },
    {
      command: 'npx tsx src/server/test/stripe/fake-stripe.ts',
      // Without the key Stripe's API answers 401: the stand-in is up.
      url: `${stripeUrl}/v1/accounts`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...stripe,
        PORT: new URL(stripeUrl).port,
        WEBHOOK_URL: `${paymentsURL}/api/payments/webhook`,
      },
    },
    {
      command: appCommand,
      url: `${paymentsURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...appEnv,
        ...stripe,
        PORT: String(paymentsPort),
        PUBLIC_URL: paymentsURL,
        DATA_DIR: paymentsDataDir,
        STRIPE_API_URL: stripeUrl,
      },
    },
  ],
});
