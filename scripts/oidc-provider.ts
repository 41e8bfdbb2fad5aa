/**
 * A local OpenID Connect provider that stands in for Google in tests: real discovery, real
 * authorization code flow with PKCE, signed ID tokens (oidc-provider, certified OpenID
 * software). Its sign-in page has one button that signs in as the configured test user
 * (google-user@example.com by default) and grants openid, email and profile.
 *
 *   npx tsx scripts/oidc-provider.ts        (E2E_OIDC_PORT, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET,
 *                                            OIDC_REDIRECT_URI)
 *
 * Never use it outside tests: anyone can sign in as the test user.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Provider from 'oidc-provider';

export interface OidcAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
  givenName?: string;
  familyName?: string;
}

export interface OidcProviderOptions {
  port: number;
  host?: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  account?: OidcAccount;
  /** Submit the sign-in page's form without a click (for tests without a browser). */
  autoApprove?: boolean;
}

export interface RunningOidcProvider {
  issuer: string;
  /** Who the next sign-in is (tests switch between users). */
  setAccount(account: OidcAccount): void;
  close(): Promise<void>;
}

export const defaultAccount: OidcAccount = {
  sub: 'google-user-0001',
  email: 'google-user@example.com',
  emailVerified: true,
  name: 'Gianni Google',
  givenName: 'Gianni',
  familyName: 'Google',
};

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem">
<main>${body}</main></body></html>`;
}

export async function startOidcProvider(opts: OidcProviderOptions): Promise<RunningOidcProvider> {
  const host = opts.host ?? '127.0.0.1';
  // Listen first (port 0 picks a free port), then build the provider for the issuer URL.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(opts.port, host, resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;
  let account = opts.account ?? defaultAccount;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: 'test-key',
    alg: 'RS256',
    use: 'sig',
  };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    features: { devInteractions: { enabled: false } },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx: unknown, sub: string) {
      const current = account;
      if (sub !== current.sub) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: current.email,
            email_verified: current.emailVerified,
            name: current.name,
            given_name: current.givenName,
            family_name: current.familyName,
          };
        },
      };
    },
  });
  // The test issuer is plain HTTP on loopback.
  provider.proxy = false;

  const finish = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: account.sub, clientId: details.params.client_id });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  const callback = provider.callback();
  handle = (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const match = url.pathname.match(/^\/interaction\/([\w-]+)(\/confirm)?$/);
    if (!match) return void callback(req, res);
    (async () => {
      if (match[2] && req.method === 'POST') return finish(req, res);
      const details = await provider.interactionDetails(req, res);
      if (opts.autoApprove) return finish(req, res);
      const client = escape(String(details.params.client_id));
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        page(
          'Sign in with Google (test)',
          `<h1>Sign in with Google (test provider)</h1>
<p>${client} asks for your name and e-mail address.</p>
<form method="post" action="/interaction/${escape(match[1])}/confirm">
<button type="submit">Continue as ${escape(account.email)}</button></form>`,
        ),
      );
    })().catch((err: Error) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('Sign-in failed', `<h1>Sign-in failed</h1><p>${escape(err.message)}</p>`));
    });
  };

  return {
    issuer,
    setAccount(next) {
      account = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run as a process (Playwright's webServer): configuration from the environment.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = Number(process.env.E2E_OIDC_PORT ?? 3199);
  const running = await startOidcProvider({
    port,
    clientId: process.env.GOOGLE_CLIENT_ID ?? 'scaffale-e2e',
    clientSecret: process.env.GOOGLE_CLIENT_SECRET ?? 'scaffale-e2e-secret',
    redirectUris: (
      process.env.OIDC_REDIRECT_URI ?? 'http://127.0.0.1:3100/api/auth/callback/google'
    )
      .split(',')
      .map((s) => s.trim()),
  });
  console.log(`test OpenID Connect provider at ${running.issuer}`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
