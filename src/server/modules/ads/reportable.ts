/**
 * Advertisements are reportable (docs/moderation.md), and rejected rather than hidden: status
 * 'rejected' with the moderator's reason, which the author sees in their list and on the ad's
 * page. A rejected ad is never served (serving reads only active ads) and cannot be activated
 * or resumed; editing it makes it a draft; a moderator's restore makes it paused, for its author
 * to resume (decision 0037).
 */
import {
  defineReportable,
  type ModerationQuery,
  type ReportableView,
} from '../../platform/moderation';
import { excerpt } from '../moderation';
import { dayOf, isAdId, isRunning } from './queries';

/**
 * The serving lists of this process's apps (each drops its in-memory running ads at once when a
 * moderator rejects or restores an ad; other processes within ADS_SERVING_CACHE_MS). Apps add
 * theirs when built and remove it when closed.
 */
export const servingInvalidators = new Set<() => void>();

async function reject(query: ModerationQuery, id: string, reason: string | undefined) {
  if (!isAdId(id)) return false;
  const rows = await query(
    `update book_advertisements set status = 'rejected', rejection_reason = $2,
       rejected_at = now(), updated_at = now()
     where id = $1 returning id`,
    [id, reason?.slice(0, 2000) ?? null],
  );
  return rows.length > 0;
}

export const adReportable = defineReportable({
  kind: 'ad',
  async load(query, ids, viewer) {
    const rows = await query<{
      id: string;
      title: string;
      description: string;
      author_id: string;
      display_name: string;
      status: 'draft' | 'active' | 'paused' | 'rejected';
      start_date: string | null;
      end_date: string | null;
      active: boolean;
    }>(
      `select a.id, a.title, a.description, a.author_id, u.display_name, a.status,
         a.start_date::text as start_date, a.end_date::text as end_date,
         u.account_status = 'active' as active
       from book_advertisements a join users u on u.id = a.author_id
       where a.id = any($1::uuid[])`,
      [ids.filter(isAdId)],
    );
    const today = dayOf(new Date());
    const out = new Map<string, ReportableView>();
    for (const r of rows) {
      // Readers see running ads only (as GET /api/ads/:id); the author sees their own.
      const seen = (isRunning(r, today) && r.active) || r.author_id === viewer.userId;
      if (!viewer.moderator && !seen) continue;
      out.set(r.id, {
        id: r.id,
        title: r.title,
        excerpt: excerpt(r.description),
        authorId: r.author_id,
        authorName: r.display_name,
        link: `/ads/${r.id}`,
        hidden: r.status === 'rejected',
      });
    }
    return out;
  },
  // An ad is hidden by rejecting it: the one way a moderator takes an ad down.
  hide: (query, id, reason) => reject(query, id, reason),
  reject: (query, id, reason) => reject(query, id, reason),
  async restore(query, id) {
    if (!isAdId(id)) return false;
    await query(
      `update book_advertisements set status = 'paused', rejection_reason = null,
         rejected_at = null, updated_at = now()
       where id = $1 and status = 'rejected'`,
      [id],
    );
    const [row] = await query('select 1 from book_advertisements where id = $1', [id]);
    return Boolean(row);
  },
  async ownerOf(query, id) {
    if (!isAdId(id)) return null;
    const [row] = await query<{ author_id: string }>(
      'select author_id from book_advertisements where id = $1',
      [id],
    );
    return row?.author_id ?? null;
  },
  async changed() {
    for (const invalidate of servingInvalidators) invalidate();
  },
});
