import { timingSafeEqual } from 'node:crypto';
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type RegistryContentType,
} from 'prom-client';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { MetricsConfig } from '../../config';
import type { Database } from '../../db/client';
import { errorSchema, sendNotFound, unauthorized } from '../errors';
import type { Mailer } from '../mail';
import type { RealtimeObserver } from '../realtime';

/**
 * The process's own figures (CPU, memory, heap, handles, event-loop delay from
 * monitorEventLoopDelay): one set per process, however many apps it builds (tests build many),
 * since each set starts a sampler that is never stopped.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

export interface Metrics {
  registry: Registry;
  realtime: RealtimeObserver;
  /** The same mailer, counting what it sends and what fails. */
  instrumentMailer(mailer: Mailer): Mailer;
  /** A figure read when scraped (open sockets, buffered ad events...). */
  gauge(name: string, help: string, read: () => number | Promise<number>): void;
  /** The database pool: connections in use, idle and waiting (PostgreSQL); PGlite has one. */
  watchDatabase(database: Database): void;
  /** Times every request by its route pattern and status: before any route is added. */
  timeRequests(app: FastifyInstance): void;
  /** GET /metrics: after @fastify/swagger, so that the route is in the OpenAPI document. */
  serve(app: FastifyInstance, config: MetricsConfig): void;
  /** The exposition text, process figures included. */
  text(): Promise<{ contentType: RegistryContentType; body: string }>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const http = new Histogram({
    name: 'scaffale_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern (never the raw URL) and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const realtimeEvents = new Counter({
    name: 'scaffale_realtime_events_total',
    help: 'Realtime frames received from clients (in) and events sent to sockets (out)',
    labelNames: ['direction'] as const,
    registers,
  });
  const busMessages = new Counter({
    name: 'scaffale_realtime_bus_messages_total',
    help: 'Bus payloads this process published, and received from other processes',
    labelNames: ['direction'] as const,
    registers,
  });
  const busDelay = new Histogram({
    name: 'scaffale_realtime_bus_delay_seconds',
    help: 'From publish on one process to receipt on this one (PostgreSQL LISTEN/NOTIFY)',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const mail = new Counter({
    name: 'scaffale_mail_messages_total',
    help: 'E-mails by transport (smtp, outbox) and outcome (sent, failed)',
    labelNames: ['transport', 'outcome'] as const,
    registers,
  });
  for (const direction of ['in', 'out']) realtimeEvents.inc({ direction }, 0);
  for (const direction of ['published', 'received']) busMessages.inc({ direction }, 0);

  const metrics: Metrics = {
    registry,
    realtime: {
      frameIn: () => realtimeEvents.inc({ direction: 'in' }),
      eventOut: () => realtimeEvents.inc({ direction: 'out' }),
      published: () => busMessages.inc({ direction: 'published' }),
      received(delayMs) {
        busMessages.inc({ direction: 'received' });
        busDelay.observe(delayMs / 1000);
      },
    },
    instrumentMailer(mailer) {
      for (const outcome of ['sent', 'failed'])
        mail.inc({ transport: mailer.transport, outcome }, 0);
      return {
        ...mailer,
        transport: mailer.transport,
        async send(message) {
          try {
            await mailer.send(message);
            mail.inc({ transport: mailer.transport, outcome: 'sent' });
          } catch (err) {
            mail.inc({ transport: mailer.transport, outcome: 'failed' });
            throw err;
          }
        },
        list: (limit) => mailer.list(limit),
        close: () => mailer.close(),
      };
    },
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(await read());
        },
      });
    },
    watchDatabase(database) {
      const pool = database.pool;
      new Gauge({
        name: 'scaffale_db_pool_connections',
        help: 'Database connections of this process by state (PGlite: one, in process)',
        labelNames: ['state'] as const,
        registers,
        collect() {
          if (!pool) {
            this.set({ state: 'max' }, 1);
            return;
          }
          this.set({ state: 'max' }, pool.options.max ?? 10);
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        },
      });
      new Gauge({
        name: 'scaffale_db_pool_waiting',
        help: 'Queries waiting for a free database connection (PostgreSQL pool; 0 on PGlite)',
        registers,
        collect() {
          this.set(pool?.waitingCount ?? 0);
        },
      });
    },
    timeRequests(app) {
      app.addHook('onResponse', async (request, reply) => {
        http.observe(
          {
            method: request.method,
            // The pattern ('/api/listings/:id'); a request no route matched is '(unmatched)'.
            route: request.routeOptions.url ?? '(unmatched)',
            status: String(reply.statusCode),
          },
          reply.elapsedTime / 1000,
        );
      });
    },
    serve(app, config) {
      const expected = config.enabled && config.token ? Buffer.from(config.token) : undefined;
      const authorized = (header: string | undefined) => {
        if (!expected) return true;
        const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
        return given.length === expected.length && timingSafeEqual(given, expected);
      };
      app.get(
        '/metrics',
        {
          schema: {
            tags: ['operations'],
            summary: 'Prometheus metrics of this process',
            description:
              'Text exposition format. Open in development and tests; with METRICS_TOKEN set it ' +
              'needs `Authorization: Bearer <token>` (401 otherwise); in production without a ' +
              'token it is off (404) unless METRICS=on. See docs/operations.md.',
            security: expected ? [{ metricsToken: [] }] : [],
            response: {
              200: z.string().describe('Prometheus text format 0.0.4'),
              401: errorSchema,
              404: errorSchema,
            },
          },
        },
        async (request, reply) => {
          if (!config.enabled) return sendNotFound(request, reply);
          if (!authorized(request.headers.authorization)) {
            reply.header('www-authenticate', 'Bearer realm="metrics"');
            throw unauthorized();
          }
          const { contentType, body } = await metrics.text();
          return reply.header('cache-control', 'no-store').type(contentType).send(body);
        },
      );
    },
    async text() {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
  };
  return metrics;
}
