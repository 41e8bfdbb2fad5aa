/** The moderation queue: open reports grouped by item, each item as its readers see it. */
import { ADMIN_QUEUE_PAGE_SIZE, type QueueEntry, type ReportReason } from '@shared/moderation';
import type { Database } from '../../db/client';
import { reportable, type ModerationQuery, type ReportableView } from '../../platform/moderation';
import { toIso } from '../../db/rows';

/** Open reports grouped by item, the items reported first first, each as readers see it. */
export async function readQueue(
  database: Database,
  page = 1,
): Promise<{ items: QueueEntry[]; total: number }> {
  const query: ModerationQuery = (text, params) => database.query(text, params);
  const pageSize = ADMIN_QUEUE_PAGE_SIZE;
  const groups = await database.query<{
    kind: string;
    item_id: string;
    count: number;
    reasons: ReportReason[];
    first_at: Date;
    last_at: Date;
    total: number;
  }>(
    `select kind, item_id, count(*)::int as count,
       array_agg(distinct reason order by reason) as reasons,
       min(created_at) as first_at, max(created_at) as last_at,
       count(*) over ()::int as total
     from reports where status = 'open'
     group by kind, item_id
     order by min(created_at), kind, item_id
     limit $1 offset $2`,
    [pageSize, (page - 1) * pageSize],
  );
  if (groups.length === 0) {
    const [c] = await database.query<{ n: number }>(
      `select count(distinct (kind, item_id))::int as n from reports where status = 'open'`,
    );
    return { items: [], total: c.n };
  }
  const keys = groups.map((g) => `${g.kind}:${g.item_id}`);
  const latest = await database.query<{
    kind: string;
    item_id: string;
    reason: ReportReason;
    text: string | null;
    reporter: string;
    created_at: Date;
  }>(
    `select r.kind, r.item_id, r.reason, r.text, r.created_at,
       coalesce(u.display_name || coalesce(' (@' || u.username || ')', ''),
                r.reporter_name || ' <' || r.reporter_email || '>') as reporter
     from (select *, row_number() over (partition by kind, item_id order by created_at desc) as n
           from reports where status = 'open' and kind || ':' || item_id = any($1::text[])) r
     left join users u on u.id = r.reporter_id
     where r.n <= 10 order by r.created_at desc`,
    [keys],
  );
  const byKind = new Map<string, string[]>();
  for (const g of groups) byKind.set(g.kind, [...(byKind.get(g.kind) ?? []), g.item_id]);
  const views = new Map<string, ReportableView>();
  for (const [kind, ids] of byKind) {
    const def = reportable(kind);
    if (!def) continue;
    const loaded = await def.load(query, ids, { userId: null, moderator: true });
    for (const [id, v] of loaded) views.set(`${kind}:${id}`, v);
  }
  const authors = [...views.values()].map((v) => v.authorId).filter(Boolean) as string[];
  const suspended = new Set(
    (
      await database.query<{ id: string }>(
        `select id from users where id = any($1::text[]) and account_status <> 'active'`,
        [authors],
      )
    ).map((r) => r.id),
  );
  const items = groups.map((g): QueueEntry => {
    const key = `${g.kind}:${g.item_id}`;
    const view = views.get(key);
    return {
      kind: g.kind,
      itemId: g.item_id,
      count: g.count,
      reasons: g.reasons,
      firstReportedAt: toIso(g.first_at),
      lastReportedAt: toIso(g.last_at),
      item: view
        ? {
            kind: g.kind,
            id: view.id,
            title: view.title,
            excerpt: view.excerpt,
            authorId: view.authorId,
            authorName: view.authorName,
            link: view.link,
            hidden: view.hidden,
            rejectable: Boolean(reportable(g.kind)?.reject),
            authorSuspended: view.authorId ? suspended.has(view.authorId) : false,
          }
        : null,
      reports: latest
        .filter((r) => r.kind === g.kind && r.item_id === g.item_id)
        .map((r) => ({
          reason: r.reason,
          text: r.text,
          reporter: r.reporter,
          createdAt: toIso(r.created_at),
        })),
    };
  });
  return { items, total: groups[0].total };
}
