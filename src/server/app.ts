import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  jsonSchemaTransform,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createMailer } from './platform/mail';
import { timerInterval } from './platform/jobs';
import { createConfiguredStorage } from './platform/storage-s3';
import { AppError, registerErrorHandling, sendNotFound } from './platform/errors';
import { registerSessionSeam, withTermsRefusal } from './platform/auth';
import { createAuth, type Auth } from './platform/auth/instance';
import { registerAuthMount } from './platform/auth/mount';
import { withSafeRequestLogging } from './platform/auth/logging';
import { createSessionResolver, sessionCacheFor } from './platform/sessions';
import { registerCsrfProtection } from './platform/csrf';
import { modules } from './modules';
import { WEBHOOK_PATH } from './modules/payments';
import { createRealtime, type RealtimeService } from './platform/realtime';
import {
  createNotifications,
  DIGEST_INTERVAL_MS,
  type NotificationService,
} from './platform/notifications';
import {
  COMPRESSIBLE_EXTENSIONS,
  IMMUTABLE_CACHE_CONTROL,
  REVALIDATE_CACHE_CONTROL,
  registerCompression,
  registerHttpCache,
} from './platform/http-cache';
import { registerSpa } from './platform/spa';
import { pageHeads } from './modules/seo';
import { PublicReadCache, registerPublicReadCache } from './platform/read-cache';
import { registerSecurityHeaders } from './platform/security-headers';
import { registerTextValidation } from './platform/text-input';
import { createOwnedStorage, createUploadReleaser, type ReleaseUploads } from './platform/uploads';
import type { AppDeps, ModuleDeps } from './platform/module';
import { createMetrics } from './platform/metrics';
import { createCounterStore, fastifyRateLimitStore } from './platform/rate-limits-store';
import { registerLifecycle } from './platform/lifecycle';
import { bufferedAdEvents } from './modules/ads';
import { createListingChanges } from './platform/listing-changes';
import { createChanges } from './platform/changes';
import { createTestClock, registerTestClock } from './platform/test-clock';

export type { AppDeps } from './platform/module';

const uploadOrigins = (config: AppDeps['config']) =>
  config.storage.kind === 's3' && config.storage.publicUrl
    ? [new URL(config.storage.publicUrl).origin]
    : [];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: withSafeRequestLogging(deps.logger) ?? false,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  const files = deps.storage ?? createConfiguredStorage(config);
  // TEST_CLOCK (e2e only; refused in production by the config): a clock POST /api/dev/clock moves.
  const testClock = config.testClock && !deps.now ? createTestClock() : undefined;
  const metrics = createMetrics();
  const moduleDeps: ModuleDeps = {
    config,
    backgroundJobs: deps.backgroundJobs ?? true,
    database: deps.database,
    mailer: metrics.instrumentMailer(
      deps.mailer ??
        createMailer({
          database: deps.database,
          smtpUrl: config.smtpUrl,
          from: config.mailFrom,
          log: app.log,
        }),
    ),
    sessions: deps.sessions,
    auth: deps.auth as Auth,
    now: deps.now ?? testClock?.now ?? (() => new Date()),
    fetch: deps.fetch ?? globalThis.fetch,
    storage: createOwnedStorage({ database: deps.database, storage: files }),
    realtime:
      deps.realtime ??
      createRealtime({
        database: deps.database,
        trustedOrigins: config.trustedOrigins,
        log: app.log,
        observe: metrics.realtime,
      }),
    notifications: undefined as unknown as NotificationService,
    listingChanges:
      deps.listingChanges ??
      createListingChanges({
        query: (text, params) => deps.database.query(text, params),
        log: app.log,
      }),
    changes: deps.changes ?? createChanges(),
    releaseUploads: undefined as unknown as ReleaseUploads,
  };
  moduleDeps.releaseUploads = createUploadReleaser({
    database: deps.database,
    storage: files,
    log: app.log,
  });
  moduleDeps.notifications =
    deps.notifications ??
    createNotifications({
      database: deps.database,
      realtime: moduleDeps.realtime,
      mailer: moduleDeps.mailer,
      publicUrl: config.publicUrl,
      now: moduleDeps.now,
      log: app.log,
      digestIntervalMs: timerInterval(config, DIGEST_INTERVAL_MS),
    });
  // Off when the caller says so (createTestApp): see AppDeps.backgroundJobs.
  if (moduleDeps.backgroundJobs) moduleDeps.notifications.start();
  // Notifications first: a digest run in progress finishes before the realtime service goes.
  app.addHook('onClose', async () => {
    await moduleDeps.listingChanges.settled();
    await moduleDeps.notifications.close();
    await moduleDeps.realtime.close();
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // First, so that its timing hook sees every route (platform/metrics).
  metrics.timeRequests(app);
  registerLifecycle(app, {
    drain: config.drain,
    closeSockets: () => (moduleDeps.realtime as Partial<RealtimeService>).drain?.(),
  });
  metrics.watchDatabase(deps.database);
  metrics.gauge(
    'scaffale_realtime_open_sockets',
    'WebSockets open on this process',
    () => (moduleDeps.realtime as Partial<RealtimeService>).socketCount?.() ?? 0,
  );
  metrics.gauge(
    'scaffale_http_open_connections',
    'HTTP connections open on this process (WebSockets included)',
    () => new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n ?? 0))),
  );
  metrics.gauge(
    'scaffale_ad_events_buffered',
    'Counted ad views and clicks held in memory, not yet written',
    () => bufferedAdEvents(deps.database),
  );
  registerTextValidation(app);
  // Before every route: compression and cache headers hook routes as they are added.
  await registerCompression(app);
  registerHttpCache(app);
  registerPublicReadCache(
    app,
    new PublicReadCache(config.publicReadCacheMs, () => moduleDeps.now().getTime()),
  );

  const https = config.publicUrl.startsWith('https://');
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets CSS variables through style attributes and <style> elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // /uploads redirects to the bucket's public address when S3_PUBLIC_URL is set.
        imgSrc: ["'self'", 'data:', 'blob:', ...uploadOrigins(config)],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie, { secret: config.authSecret });
  // Shared by every process on PostgreSQL, this process's memory on the embedded database.
  const counters = createCounterStore(deps.database);
  await app.register(rateLimit, {
    global: false,
    ...(deps.database.kind === 'postgres' ? { store: fastifyRateLimitStore(counters) } : {}),
    errorResponseBuilder: (_request, context) => {
      return new AppError(context.statusCode, 'rate_limited', 'errors.rateLimited', undefined, {
        seconds: Math.ceil(context.ttl / 1000),
      });
    },
  });
  moduleDeps.auth ??= createAuth({
    config,
    database: deps.database,
    mailer: moduleDeps.mailer,
    log: app.log,
  });
  moduleDeps.sessions ??= createSessionResolver({
    auth: moduleDeps.auth,
    database: deps.database,
    now: moduleDeps.now,
    cache: sessionCacheFor(moduleDeps.realtime as Partial<RealtimeService>),
  });
  registerCsrfProtection(app, config.trustedOrigins, [WEBHOOK_PATH]);
  registerSessionSeam(app, moduleDeps.sessions);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Scaffale API', version: '1.0.0', description: 'The HTTP API of Scaffale.' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'scaffale.session_token' },
          metricsToken: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: (args) => jsonSchemaTransform(withTermsRefusal(args)),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  // After the document's hook: the sign-up route is documented (the other auth routes are hidden).
  await registerAuthMount(app, {
    auth: moduleDeps.auth,
    config,
    database: deps.database,
    mailer: moduleDeps.mailer,
    store: counters,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  metrics.serve(app, config.metrics);

  if (testClock) registerTestClock(app, testClock);
  await moduleDeps.storage.register(app);
  const realtime = moduleDeps.realtime as Partial<RealtimeService>;
  if (realtime.attach) await realtime.attach(app);
  for (const register of modules) {
    await app.register(async (scope) =>
      register(scope.withTypeProvider<ZodTypeProvider>(), moduleDeps),
    );
  }

  const webDir =
    config.webDir && existsSync(join(config.webDir, 'index.html')) ? config.webDir : undefined;
  let serveSpa: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | undefined;
  if (webDir) {
    const textFile = new RegExp(`\\.(?:${COMPRESSIBLE_EXTENSIONS.join('|')})(?:\\.br|\\.gz)?$`);
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // Brotli and gzip twins written by scripts/build.mjs; index.html is the SPA route's.
      preCompressed: true,
      globIgnore: ['index.html', '**/*.br', '**/*.gz'],
      // Our own Cache-Control below; @fastify/send's default (max-age=0) would overwrite it.
      cacheControl: false,
      setHeaders(res, path) {
        const hashed = relative(webDir, path).startsWith(`assets${sep}`);
        res.setHeader('cache-control', hashed ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL);
        if (textFile.test(path)) res.setHeader('vary', 'accept-encoding');
      },
    });
    serveSpa = await registerSpa(app, {
      webDir,
      pageHeads: pageHeads({
        database: deps.database,
        publicUrl: config.publicUrl,
        now: moduleDeps.now,
      }),
    });
  }
  // Every non-API GET is the single-page app (the route above), whose router shows the
  // not-found screen; this catches what that route cannot (other methods, overlong paths).
  app.setNotFoundHandler((request, reply) => {
    if (!serveSpa || (request.method !== 'GET' && request.method !== 'HEAD'))
      return sendNotFound(request, reply);
    return serveSpa(request, reply);
  });

  return app;
}
