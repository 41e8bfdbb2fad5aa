import { greetingName } from '../../platform/mail';
import { isLanguage, type Language } from '@shared/constants';
import {
  ADMIN_LOG_PAGE_SIZE,
  VISITOR_REPORT_REASON,
  visitorReporterSchema,
  type LogEntry,
  type ModerationAction,
  type ReportReason,
} from '@shared/moderation';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../platform/errors';
import { hasKey, t } from '../../platform/i18n';
import { layoutEmail } from '../../platform/mail';
import {
  reportable,
  writeModerationLog,
  type ModerationQuery,
  type Moderator,
  type Reportable,
} from '../../platform/moderation';
import { inTransaction, sqlState } from '../../db/tx';
import { endSessions } from './reportables';
import { readQueue } from './queue';
import { createReportOutcome, REPORTER_COLUMNS, type ClosedReport } from './outcome';
import { closeReportsAboutMember } from './suspension';
import type { ModerationDeps } from './deps';
import { toIso } from '../../db/rows';

export type { Moderator };

export const NOTIFICATION_TYPE = 'moderation.action';

const kindOf = (kind: string): Reportable => {
  const def = reportable(kind);
  if (!def)
    throw new AppError(400, 'validation_failed', 'errors.validation', {
      kind: 'moderation.errors.unknownKind',
    });
  return def;
};

export function createModerationService(deps: ModerationDeps) {
  const { database, mailer, log, publicUrl } = deps;
  const query: ModerationQuery = (text, params) => database.query(text, params);
  deps.notifications?.defineType({
    type: NOTIFICATION_TYPE,
    defaults: { inApp: true, email: false },
    link: (n) =>
      typeof n.data.link === 'string' && n.data.link
        ? n.data.link
        : `/profile/${encodeURIComponent(n.recipientId)}/dashboard`,
  });
  const tellReporters = createReportOutcome(deps);

  /** The statement of reasons: what was decided, about what, and why (EU DSA art. 17). */
  async function tellMember(
    userId: string | null,
    action: ModerationAction,
    item: { kind: string; id: string; title: string | null; link: string | null } | null,
    reason: string,
  ) {
    if (!userId) return;
    try {
      const [member] = await database.query<{
        email: string;
        display_name: string;
        preferred_language: string;
      }>('select email::text as email, display_name, preferred_language from users where id = $1', [
        userId,
      ]);
      if (!member) return;
      const lang: Language = isLanguage(member.preferred_language)
        ? member.preferred_language
        : 'it';
      const kindName = item ? t(lang, `moderation.kinds.${item.kind}`) : '';
      const vars = { kind: kindName, title: item?.title ?? '' };
      // A removal links to the appeal path its note describes (the contact page), never to the
      // page that is gone; a decision in the member's favour links to the item.
      const appeal = action === 'suspend' || action === 'hide' || action === 'reject';
      const link = appeal || !item?.link ? `${publicUrl}/contact` : `${publicUrl}${item.link}`;
      // A kind may word a decision its own way (`restore_ad`: a restored ad is paused).
      const textKey = (part: 'subject' | 'intro') =>
        item && hasKey(`moderation.email.${part}.${action}_${item.kind}`)
          ? `moderation.email.${part}.${action}_${item.kind}`
          : `moderation.email.${part}.${action}`;
      await mailer.send(
        layoutEmail({
          lang,
          to: member.email,
          subject: t(lang, textKey('subject'), vars),
          greeting: t(lang, 'auth.email.greeting', {
            name: greetingName(member.display_name, member.email),
          }),
          intro: t(lang, textKey('intro'), vars),
          quote: `${t(lang, 'moderation.email.reason')}: ${reason}`,
          action: {
            label: t(lang, appeal ? 'moderation.email.appeal' : 'moderation.email.open'),
            link,
          },
          note: t(lang, 'moderation.email.note'),
          signature: t(lang, 'auth.email.signature'),
        }),
      );
      // In the bell too: `notifications.types.moderation.action_<action>` (context = action).
      await deps.notifications?.notify({
        recipientId: userId,
        type: NOTIFICATION_TYPE,
        subject: item ? { type: item.kind, id: item.id } : { type: 'user', id: userId },
        data: {
          context: action,
          kind: item?.kind ?? null,
          title: (item?.title ?? '').slice(0, 200),
          // A hidden item has no page to open; a restored one has, and so has a rejected one
          // for its author (who sees their own ad in any status, with the reason).
          link: action === 'restore' || action === 'reject' ? (item?.link ?? null) : null,
        },
      });
    } catch (err) {
      log.error({ err, userId, action }, 'statement of reasons not sent');
    }
  }

  const writeLog = writeModerationLog;
  /** A member suspended or back: their listings leave readers' sight or return. */
  const trackListingsOf = async (userId: string) =>
    deps.listingChanges ? deps.listingChanges.trackSellers([userId]) : () => {};

  const service = {
    /**
     * A report by a member (any reason) or a visitor (illegal content only, with name and
     * e-mail, kept with the request's `language` for the outcome's e-mail). One open report per
     * reporter and item; items the reporter cannot see are a 404.
     */
    async report(
      reporter: { id: string } | null,
      input: {
        kind: string;
        id: string;
        reason: ReportReason;
        text?: string;
        name?: string;
        email?: string;
      },
      language?: Language,
    ): Promise<{ id: string; status: 'open' }> {
      const def = kindOf(input.kind);
      let visitor: { name: string; email: string } | null = null;
      if (!reporter) {
        if (input.reason !== VISITOR_REPORT_REASON)
          throw unauthorized('moderation.errors.signInToReport');
        const parsed = visitorReporterSchema.safeParse({ name: input.name, email: input.email });
        if (!parsed.success) {
          const fields: Record<string, string> = {};
          for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
          throw new AppError(400, 'validation_failed', 'errors.validation', fields);
        }
        visitor = parsed.data;
      }
      const views = await def.load(query, [input.id], { userId: reporter?.id ?? null });
      const view = views.get(input.id);
      if (!view) throw notFound('moderation.errors.itemNotFound');
      if (reporter && view.authorId === reporter.id) throw badRequest('moderation.errors.ownItem');
      try {
        const [row] = await database.query<{ id: string }>(
          `insert into reports (kind, item_id, reporter_id, reporter_name, reporter_email, reason,
             text, reporter_language)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
          [
            def.kind,
            input.id,
            reporter?.id ?? null,
            visitor?.name ?? null,
            visitor?.email ?? null,
            input.reason,
            input.text ?? null,
            visitor ? (language ?? null) : null,
          ],
        );
        return { id: row.id, status: 'open' };
      } catch (err) {
        if (sqlState(err) === '23505') throw conflict('moderation.errors.alreadyReported');
        throw err;
      }
    },

    /** Open reports grouped by item, the items reported first first, each as readers see it. */
    queue: (page = 1) => readQueue(database, page),

    /**
     * dismiss, hide, reject or restore an item; its open reports are closed, the action logged.
     * Kinds that are rejected rather than hidden (ads) take 'hide' as 'reject'.
     */
    async actOnItem(
      actor: Moderator,
      requested: 'dismiss' | 'hide' | 'restore' | 'reject',
      kind: string,
      itemId: string,
      reason: string,
    ): Promise<void> {
      // A profile is its member: hiding it is the suspension (sessions end, sign-in refused).
      if (kind === 'profile' && requested === 'hide')
        return service.suspend(actor, itemId, reason, { kind, itemId });
      if (kind === 'profile' && requested === 'restore')
        return service.unsuspend(actor, itemId, reason);
      const def = kindOf(kind);
      const reject = def.reject;
      const action = requested === 'hide' && reject ? 'reject' : requested;
      if (action === 'reject' && !reject) throw badRequest('moderation.errors.cannotReject');
      const [view] = [
        ...(await def.load(query, [itemId], { userId: actor.id, moderator: true })).values(),
      ];
      const owner = view ? view.authorId : await def.ownerOf(query, itemId);
      const listingChanged =
        kind === 'listing' && action !== 'dismiss' && deps.listingChanges
          ? await deps.listingChanges.track(itemId)
          : () => {};
      const closed = await inTransaction(database, async (q) => {
        let closed: ClosedReport[];
        if (action === 'dismiss') {
          closed = await q<ClosedReport>(
            `update reports set status = 'dismissed', resolved_at = now()
             where kind = $1 and item_id = $2 and status = 'open' returning ${REPORTER_COLUMNS}`,
            [kind, itemId],
          );
          if (closed.length === 0) throw notFound('moderation.errors.noOpenReports');
        } else {
          const done = await (action === 'reject'
            ? reject!(q, itemId, reason)
            : action === 'hide'
              ? def.hide(q, itemId, reason)
              : def.restore(q, itemId));
          if (!done) throw notFound('moderation.errors.itemNotFound');
          closed = await q<ClosedReport>(
            `update reports set status = 'actioned', resolved_at = now()
             where kind = $1 and item_id = $2 and status = 'open' returning ${REPORTER_COLUMNS}`,
            [kind, itemId],
          );
        }
        await writeLog(q, actor, action, { kind, itemId, targetUserId: owner }, reason);
        return closed;
      });
      listingChanged();
      const item = { kind, id: itemId, title: view?.title ?? null, link: view?.link ?? null };
      // Dismissed as unfounded or restored: reviewed and kept.
      const kept = action === 'dismiss' || action === 'restore';
      await tellReporters(closed, kept ? 'kept' : 'removed', item);
      if (action === 'dismiss') return;
      await def
        .changed?.(itemId, { realtime: deps.realtime, query })
        .catch((err) => log.warn({ err, kind, itemId }, 'moderation change not published'));
      await tellMember(owner, action, item, reason);
    },

    /**
     * Suspends a member: every session and live socket ends at once, sign-in is refused, and they disappear from
     * every list (the shared condition on account_status). Open reports of the item that led to
     * it, if named, are closed, and so are the open reports about anything else of theirs
     * (suspension.ts): each reporter hears that the content was removed.
     */
    async suspend(
      actor: Moderator,
      userId: string,
      reason: string,
      context?: { kind?: string; itemId?: string },
    ): Promise<void> {
      if (userId === actor.id) throw badRequest('moderation.errors.notYourself');
      const listingsChanged = await trackListingsOf(userId);
      const { closed, name, swept } = await inTransaction(database, async (q) => {
        const [row] = await q<{ status: string; name: string }>(
          'select account_status as status, display_name as name from users where id = $1 for update',
          [userId],
        );
        if (!row || row.status === 'deleted') throw notFound('moderation.errors.memberNotFound');
        if (row.status === 'suspended') throw conflict('moderation.errors.alreadySuspended');
        await q(`update users set account_status = 'suspended', updated_at = now() where id = $1`, [
          userId,
        ]);
        await endSessions(q, userId);
        const closed =
          context?.kind && context.itemId
            ? await q<ClosedReport>(
                `update reports set status = 'actioned', resolved_at = now()
                 where kind = $1 and item_id = $2 and status = 'open' returning ${REPORTER_COLUMNS}`,
                [context.kind, context.itemId],
              )
            : [];
        await writeLog(
          q,
          actor,
          'suspend',
          { kind: context?.kind, itemId: context?.itemId, targetUserId: userId },
          reason,
        );
        // Everything else of theirs that was reported goes with them: decided too.
        const swept = await closeReportsAboutMember(q, userId);
        return { closed, name: row.name, swept };
      });
      listingsChanged();
      // Sessions are gone, but open sockets were authorised at their handshake: close them on
      // every process (code 4401; the browser does not reconnect with an ended session).
      try {
        await deps.realtime.disconnectUsers?.([userId]);
      } catch (err) {
        log.warn({ err, userId }, 'moderation: could not close the live sockets');
      }
      await tellMember(userId, 'suspend', null, reason);
      if (context?.kind && context.itemId)
        await tellReporters(closed, 'removed', {
          kind: context.kind,
          id: context.itemId,
          title: name,
          link: null,
        });
      for (const { item, reports } of swept) await tellReporters(reports, 'removed', item);
    },

    async unsuspend(actor: Moderator, userId: string, reason: string): Promise<void> {
      const listingsChanged = await trackListingsOf(userId);
      await inTransaction(database, async (q) => {
        const [row] = await q<{ status: string }>(
          'select account_status as status from users where id = $1 for update',
          [userId],
        );
        if (!row || row.status === 'deleted') throw notFound('moderation.errors.memberNotFound');
        if (row.status !== 'suspended') throw conflict('moderation.errors.notSuspended');
        await q(`update users set account_status = 'active', updated_at = now() where id = $1`, [
          userId,
        ]);
        await writeLog(q, actor, 'unsuspend', { targetUserId: userId }, reason);
      });
      listingsChanged();
      await tellMember(userId, 'unsuspend', null, reason);
    },

    async suspended() {
      const rows = await database.query<{ id: string; display_name: string; email: string }>(
        `select id, display_name, email::text as email from users
         where account_status = 'suspended' order by updated_at desc, id limit 200`,
      );
      return {
        items: rows.map((r) => ({ id: r.id, displayName: r.display_name, email: r.email })),
      };
    },

    /** The audit log, newest first (read-only: the table refuses UPDATE and DELETE). */
    async auditLog(page = 1): Promise<{ items: LogEntry[]; hasMore: boolean }> {
      const pageSize = ADMIN_LOG_PAGE_SIZE;
      const rows = await database.query<{
        id: string | number;
        actor: string | null;
        action: ModerationAction;
        kind: string | null;
        item_id: string | null;
        target_user_id: string | null;
        target_name: string | null;
        reason: string;
        created_at: Date;
      }>(
        `select g.id, coalesce(a.display_name, g.actor_email) as actor, g.action, g.kind,
           g.item_id, g.target_user_id, t.display_name as target_name, g.reason, g.created_at
         from moderation_log g
         left join users a on a.id = g.actor_id
         left join users t on t.id = g.target_user_id
         order by g.created_at desc, g.id desc limit $1 offset $2`,
        [pageSize + 1, (page - 1) * pageSize],
      );
      return {
        hasMore: rows.length > pageSize,
        items: rows.slice(0, pageSize).map((r) => ({
          id: Number(r.id),
          actor: r.actor,
          action: r.action,
          kind: r.kind,
          itemId: r.item_id,
          targetUserId: r.target_user_id,
          targetName: r.target_name,
          reason: r.reason,
          createdAt: toIso(r.created_at),
        })),
      };
    },
  };
  return service;
}

export type ModerationService = ReturnType<typeof createModerationService>;
