import { reportable, type ModerationQuery } from '../../platform/moderation';
import { REPORTER_COLUMNS, type ClosedReport, type DecidedItem } from './outcome';

/** The open reports a suspension closed, by item, for their reporters to hear the outcome. */
export interface ClosedByItem {
  item: DecidedItem;
  reports: ClosedReport[];
}

/**
 * A suspended member's content goes out of sight with them (the shared condition on
 * account_status), so the open reports about any of it (their profile, listings, messages,
 * posts, comments, ads) are decided by the suspension: closed as actioned, in the suspension's
 * own transaction, and their reporters told the content was removed. Left open they would wait
 * in the queue for a decision nobody needs to take (decision 0057).
 */
export async function closeReportsAboutMember(
  q: ModerationQuery,
  userId: string,
): Promise<ClosedByItem[]> {
  const open = await q<{ kind: string; item_id: string }>(
    `select distinct kind, item_id from reports where status = 'open'`,
  );
  const byKind = new Map<string, string[]>();
  for (const r of open) byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), r.item_id]);
  const out: ClosedByItem[] = [];
  for (const [kind, ids] of byKind) {
    const def = reportable(kind);
    if (!def) continue;
    const views = await def.load(q, ids, { userId: null, moderator: true });
    for (const [id, view] of views) {
      if (view.authorId !== userId) continue;
      const reports = await q<ClosedReport>(
        `update reports set status = 'actioned', resolved_at = now()
         where kind = $1 and item_id = $2 and status = 'open' returning ${REPORTER_COLUMNS}`,
        [kind, id],
      );
      if (reports.length > 0)
        out.push({ item: { kind, id, title: view.title, link: view.link }, reports });
    }
  }
  return out;
}
