import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Draining (docs/decisions/0062): what a process does between SIGTERM and its exit, so a load
 * balancer moves its traffic elsewhere and nobody loses a request or an event.
 */
export interface Lifecycle {
  /** From the start of drain() on: /api/ready answers 503 and every answer closes its connection. */
  readonly draining: boolean;
  /**
   * 1. /api/ready answers 503; sockets are closed with 1012 (reconnect after a jitter, elsewhere)
   *    and new handshakes are refused; every answer carries `Connection: close`.
   * 2. After DRAIN_DELAY_MS the process stops accepting connections; requests in flight finish,
   *    for DRAIN_TIMEOUT_MS at most, then the connections left are cut.
   * 3. The app closes: background jobs and timers stop (each module's onClose), the realtime
   *    service leaves the bus. The caller then closes the database and exits.
   * Calling it again returns the same run.
   */
  drain(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

export interface LifecycleOptions {
  drain: Config['drain'];
  /** Tells this process's sockets to reconnect elsewhere (the realtime service, when it has one). */
  closeSockets?: () => void;
}

/** Before the routes, so that the `Connection: close` hook covers all of them. */
export function registerLifecycle(app: FastifyInstance, opts: LifecycleOptions): Lifecycle {
  let draining = false;
  let run: Promise<void> | undefined;

  // Keep-alive connections would otherwise keep bringing requests to a process on its way out.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (draining) reply.header('connection', 'close');
    return payload;
  });

  const drain = async () => {
    draining = true;
    app.log.info(opts.drain, 'draining: /api/ready answers 503, sockets are told to reconnect');
    opts.closeSockets?.();
    if (opts.drain.delayMs > 0) await new Promise((r) => setTimeout(r, opts.drain.delayMs));
    const cut = setTimeout(() => {
      app.log.warn(
        { timeoutMs: opts.drain.timeoutMs },
        'requests still in flight after DRAIN_TIMEOUT_MS: cutting their connections',
      );
      app.server.closeAllConnections();
    }, opts.drain.timeoutMs);
    cut.unref();
    try {
      // Stops accepting, waits for the connections to end, then runs every onClose hook.
      await app.close();
    } finally {
      clearTimeout(cut);
    }
  };

  const lifecycle: Lifecycle = {
    get draining() {
      return draining;
    },
    drain() {
      run ??= drain();
      return run;
    },
  };
  app.decorate('lifecycle', lifecycle);
  return lifecycle;
}
