/**
 * The module contract: what a domain module is handed and what it registers on. It lives in the
 * platform so that modules never import app.ts (which imports every module).
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyServerOptions,
  RawServerDefault,
} from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Mailer } from './mail';
import type { Storage } from './storage';
import type { SessionResolver } from './auth';
import type { Auth } from './auth/instance';
import type { Realtime } from './realtime';
import type { NotificationService } from './notifications';
import type { OwnedStorage, ReleaseUploads } from './uploads';
import type { ListingChanges } from './listing-changes';
import type { Changes } from './changes';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** Uploaded images; local disk under DATA_DIR/uploads, served at /uploads, by default. */
  storage?: Storage;
  /** Resolves the signed-in user behind a request; by default better-auth's sessions. */
  sessions?: SessionResolver;
  /** The better-auth instance; built on `database` and `mailer` when omitted. */
  auth?: Auth;
  logger?: FastifyServerOptions['logger'];
  /** Injected clock for rules that depend on time. */
  now?: () => Date;
  /** Injected fetch for remote services (Google Books). */
  fetch?: typeof fetch;
  /**
   * Live events to members' sockets (src/server/platform/realtime); built on `database` when
   * omitted. A service with `attach` serves GET /api/realtime; it is closed with the app.
   */
  realtime?: Realtime;
  /**
   * The notification centre (src/server/platform/notifications): features define their types and
   * call `notify`; built on `database`, `realtime` and `mailer` when omitted, its digest timer
   * started with the app and stopped when the app closes.
   */
  notifications?: NotificationService;
  /**
   * Starts the timers that do work on their own (today: the notification centre's hourly e-mail
   * digest). Default true; the test helper createTestApp sets it false so that no digest lands in
   * a suite's outbox at a random minute (the notification tests call runDigests with an injected
   * clock), unless a test asks for it with `deps: { backgroundJobs: true }`.
   */
  backgroundJobs?: boolean;
  /**
   * The one "listing changed" hook (platform/listing-changes.ts): the paths that change a listing
   * publish, features subscribe. Built on `database` when omitted.
   */
  listingChanges?: ListingChanges;
  /**
   * What changed, for the modules that follow it (platform/changes.ts): a deal opened or ended,
   * listings an offer or a deal changed. A fresh registry when omitted.
   */
  changes?: Changes;
}

export type ModuleApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;
/** A domain module: registers its routes (under /api) with their schemas. */
export type Module = (app: ModuleApp, deps: ModuleDeps) => Promise<void>;

/** Fully resolved dependencies handed to every module. */
export interface ModuleDeps extends Required<Omit<AppDeps, 'logger' | 'sessions' | 'storage'>> {
  sessions?: SessionResolver;
  /** Records who uploaded each file it saves. */
  storage: OwnedStorage;
  /** Deletes the uploaded images a change stopped showing, unless something else shows them. */
  releaseUploads: ReleaseUploads;
}
