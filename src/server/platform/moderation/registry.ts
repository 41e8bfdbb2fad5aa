/**
 * The moderation registry: a feature declares what of its content can be reported and how a
 * moderator hides and restores it. The reports route, the admin queue and its actions only speak
 * to this registry, so a new kind (post, comment, ad) plugs in with one `defineReportable` call
 * in its own module (see docs/moderation.md). Blocking will reuse `ownerOf` and `load`.
 *
 * Definitions are code, like routes: functions of the query they are given, no state of their
 * own, so one registry serves every app built in a process (tests build many).
 */

import type { Query } from '../../db/tx';

/** A query on the app's database or inside the caller's transaction. */
export type ModerationQuery = Query;

/** Who looks: a member (or null for a visitor); a moderator sees hidden items too. */
export interface Viewer {
  userId: string | null;
  moderator?: boolean;
}

/** An item as its readers see it, for the report dialog's checks and the admin queue. */
export interface ReportableView {
  id: string;
  /** A short title: the listing's title, the member's name, "Message in a conversation". */
  title: string;
  /** The text readers see, cut to a few hundred characters. */
  excerpt: string;
  /** The member who made it (suspended by the "suspend" action), if any. */
  authorId: string | null;
  authorName: string | null;
  /** Where readers see it in the app, if it has a page. */
  link: string | null;
  /** Hidden by a moderator. */
  hidden: boolean;
}

export interface Reportable {
  /** 'listing', 'profile', 'message', 'post', 'comment', 'ad'. */
  kind: string;
  /**
   * The items among `ids` that `viewer` may see, as readers see them. A viewer who is not a
   * moderator never gets hidden items, items of suspended members or items outside their reach
   * (a message of a conversation they are not in); a report on those is a 404.
   */
  load(query: ModerationQuery, ids: string[], viewer: Viewer): Promise<Map<string, ReportableView>>;
  /**
   * Hides the item for everyone but moderators; false when there is no such item. `reason` is the
   * moderator's (kinds that show it to their author keep it, e.g. a rejected ad).
   */
  hide(query: ModerationQuery, id: string, reason?: string): Promise<boolean>;
  /**
   * Kinds that are rejected rather than hidden (ads): the queue offers "reject", the action is
   * logged as 'reject', and the author sees the reason beside the item. Usually the same as `hide`.
   */
  reject?(query: ModerationQuery, id: string, reason: string): Promise<boolean>;
  /** Undoes `hide`; false when there is no such item. */
  restore(query: ModerationQuery, id: string): Promise<boolean>;
  /** The member answerable for the item (who gets the statement of reasons), if any. */
  ownerOf(query: ModerationQuery, id: string): Promise<string | null>;
  /**
   * Called after a hide or restore is committed, e.g. to tell open pages over realtime. Gets the
   * app's services the module was given (typed loosely so the registry depends on no module).
   */
  changed?(id: string, services: { realtime?: unknown; query: ModerationQuery }): Promise<void>;
}

const registry = new Map<string, Reportable>();

/** Declares a reportable kind; defining a kind twice replaces it (module reloads in dev). */
export function defineReportable(def: Reportable): Reportable {
  if (!/^[a-z][a-z_]{1,30}$/.test(def.kind)) throw new Error(`bad reportable kind ${def.kind}`);
  registry.set(def.kind, def);
  return def;
}

export function reportable(kind: string): Reportable | undefined {
  return registry.get(kind);
}

export function reportableKinds(): string[] {
  return [...registry.keys()];
}
