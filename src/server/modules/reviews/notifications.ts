import type { Database } from '../../db/client';
import type { Notifications } from '../../platform/notifications/types';
import { REVIEW_WINDOW_DAYS } from '@shared/reviews';
import { TRANSACTION_SUBJECT } from './confirmations';

/** Both reviews of a transaction are published (told to both parties). */
export const REVIEW_PUBLISHED = 'review.published';
/** The other party reviewed me and it waits for mine: no rating, no text, only that it exists. */
export const REVIEW_WAITING = 'review.waiting';

/** The review notifications (decision 0073); both open the private area's trades page. */
export function defineReviewNotifications(notifications: Notifications, database: Database) {
  const link = ({ recipientId }: { recipientId: string }) =>
    `/profile/${encodeURIComponent(recipientId)}/transactions`;
  notifications.defineType({
    type: REVIEW_PUBLISHED,
    defaults: { inApp: true, email: true },
    link,
    // About a sale between them: it reaches across a block (decision 0036, audience.ts).
    acrossBlocks: true,
  });
  notifications.defineType({
    type: REVIEW_WAITING,
    defaults: { inApp: true, email: true },
    link,
    // About a sale between them: it reaches across a block (decision 0036, audience.ts).
    acrossBlocks: true,
    // Only while it still asks for something: I have not written mine and the 14 days last.
    async visible(recipientId, ids) {
      const rows = await database.query<{ id: string }>(
        `select t.id::text as id from transactions t
         where t.id = any($2::uuid[])
           and t.agreed_at + make_interval(days => $3) > now()
           and not exists (select 1 from reviews r where r.transaction_id = t.id and r.author_id = $1)`,
        [recipientId, ids, REVIEW_WINDOW_DAYS],
      );
      return new Set(rows.map((r) => r.id));
    },
  });
}

/** After a review is written: both told when it published the pair, else the subject asked. */
export async function tellAboutReview(
  notifications: Notifications,
  review: { transactionId: string; authorId: string; subjectId: string },
  publishedTogether: boolean,
) {
  const subject = { type: TRANSACTION_SUBJECT, id: review.transactionId };
  if (publishedTogether) {
    await notifications.notify(publishedNotices(review));
    return;
  }
  await notifications.notify({
    recipientId: review.subjectId,
    type: REVIEW_WAITING,
    actorId: review.authorId,
    subject,
    onceKey: review.transactionId,
  });
}

/** 'review.published' to both parties, once per transaction however it was published. */
function publishedNotices(review: { transactionId: string; authorId: string; subjectId: string }) {
  const subject = { type: TRANSACTION_SUBJECT, id: review.transactionId };
  const onceKey = review.transactionId;
  return [
    {
      recipientId: review.authorId,
      type: REVIEW_PUBLISHED,
      actorId: review.subjectId,
      subject,
      onceKey,
    },
    {
      recipientId: review.subjectId,
      type: REVIEW_PUBLISHED,
      actorId: review.authorId,
      subject,
      onceKey,
    },
  ];
}

/** The job that tells both parties when a review written alone is published by the 14 days. */
export const REVIEWS_PUBLISHED_JOB = 'reviews published';
export const REVIEWS_PUBLISHED_JOB_MS = 60_000;
/** How far back the first run of a process looks (a restart catches up on what it missed). */
const FIRST_LOOK_BACK_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * Every review whose publication time passed since the last run (on the app's clock): both
 * parties told. The notification's once-key (the transaction) makes a repeat, another process's
 * run or the pair published together by the second review, a no-op.
 */
export function createPublishedReviewsJob(database: Database, notifications: Notifications) {
  let last: Date | null = null;
  return async (now: Date) => {
    const from = last ?? new Date(now.getTime() - FIRST_LOOK_BACK_MS);
    const rows = await database.query<{
      transaction_id: string;
      author_id: string;
      subject_id: string;
    }>(
      `select transaction_id::text, author_id, subject_id from reviews
       where published_at > $1 and published_at <= $2`,
      [from, now],
    );
    for (const r of rows)
      await notifications.notify(
        publishedNotices({
          transactionId: r.transaction_id,
          authorId: r.author_id,
          subjectId: r.subject_id,
        }),
      );
    last = now;
    return rows.length;
  };
}
