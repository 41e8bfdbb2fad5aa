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
  });
  notifications.defineType({
    type: REVIEW_WAITING,
    defaults: { inApp: true, email: true },
    link,
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
    await notifications.notify([
      { recipientId: review.authorId, type: REVIEW_PUBLISHED, actorId: review.subjectId, subject },
      { recipientId: review.subjectId, type: REVIEW_PUBLISHED, actorId: review.authorId, subject },
    ]);
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
