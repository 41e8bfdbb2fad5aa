/**
 * The notification service's contract (src/server/platform/notifications), which every feature
 * uses to tell a member that something happened: friends, offers, wishlist alerts, trade matches,
 * community comments and reactions, moderation. One `notifications` table; one bell.
 *
 * A notification is stored with ids and a few short facts, never with a copy of what it is about:
 * the list reads its subject's visibility when it is shown, so a notification never reveals what
 * its recipient may no longer see, and `removeForSubject` deletes it with what it points to.
 */

/** A kind of notification; each feature defines its own at startup (in its module). */
export interface NotificationTypeDef {
  /** e.g. 'friend.request', 'friend.accepted', 'wishlist.listed', 'trade.match', 'offer.received' */
  type: string;
  /** The defaults of the member's per-type settings. */
  defaults: { inApp: boolean; email: boolean };
  /**
   * The feature sends this type's e-mail itself, at once and in its own words (asking
   * `emailWanted` first, so the member's switches still decide); the digest leaves it out.
   */
  ownEmail?: boolean;
  /**
   * The app path the notification opens, from its stored subject and data
   * (e.g. `/library/${subject.id}`). Used by the list (as `link`) and by the e-mails.
   * `recipientId` serves paths of the private area (`/profile/${recipientId}/friends`).
   */
  link(n: {
    subjectType: string;
    subjectId: string;
    data: NotificationData;
    recipientId: string;
  }): string;
  /**
   * Of these subject ids, the ones the recipient may still see (e.g. the listing is still
   * available, the post is not hidden, no block stands between them). Notifications whose subject
   * is not returned are left out of lists, counts and e-mails. By default every subject is visible.
   */
  visible?(recipientId: string, subjectIds: string[]): Promise<Set<string>>;
  /**
   * Notices of what a block leaves standing between two members (a sale under way, its
   * conversation, confirmation and reviews: decision 0036) still reach across a block, and the
   * block does not take them away. Every other type follows the audience rule in full
   * (audience.ts): nothing across a block, either way.
   */
  acrossBlocks?: boolean;
}

/** Short facts kept with a notification for its text and link (under 1 KB in all). */
export type NotificationData = Record<string, string | number | null>;

export interface NotifyInput {
  recipientId: string;
  /** A type defined with `defineType`. */
  type: string;
  /** The member who caused it; never notified of their own action (the call is ignored). */
  actorId?: string | null;
  /** What it is about: 'listing', 'connection', 'room', 'post', 'comment', 'user', 'ad', ... */
  subject: { type: string; id: string };
  data?: NotificationData;
  /**
   * At most one notification per recipient, type and key, ever (e.g. the listing id for a wished
   * book listed): a repeat is silently ignored (a unique index, safe under races).
   */
  onceKey?: string;
  /**
   * Unread notifications of one recipient, type and group key fold into one row that counts its
   * actors ("Anna and 3 others liked your post"): the row's actor becomes the latest, its
   * `actorCount` grows, it moves to the top and becomes unread again.
   */
  groupKey?: string;
}

/**
 * The text of a notification is the locale key `notifications.types.<type>` (in it.json and
 * en.json), with the variables `actor` (display name of the latest actor), `others`
 * (actorCount - 1) and every entry of `data`. The web client and the e-mails use the same key.
 */
export interface Notifications {
  defineType(def: NotificationTypeDef): void;
  /**
   * Stores the notification(s) unless the member turned the type's in-app switch off, pushes
   * `{ type: 'notification.new', unread }` to the recipient's sockets over the realtime service, and
   * queues the e-mail digest when the type's e-mail switch and the profile's `email_notifications`
   * are on. Call it after the change that caused it is committed. It never throws into the caller:
   * failures are logged.
   */
  notify(input: NotifyInput | readonly NotifyInput[]): Promise<void>;
  /**
   * Whether the member wants this type by e-mail now: the type's e-mail switch (or its default)
   * and the profile's `email_notifications`. For types with `ownEmail`.
   */
  emailWanted(recipientId: string, type: string): Promise<boolean>;
  /** Deletes every notification about these subjects (call it when they are deleted). */
  removeForSubject(subjectType: string, subjectIds: string | readonly string[]): Promise<void>;
  /**
   * A block between `a` and `b` is committed: deletes what either was told of the other (their
   * bell rows and pending digest lines), but types defined with `acrossBlocks`. Never throws.
   */
  forgetBetween(a: string, b: string): Promise<void>;
}
