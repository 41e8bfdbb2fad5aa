import { greetingName } from '../../platform/mail';
import { isLanguage, type Language } from '@shared/constants';
import { t } from '../../platform/i18n';
import { layoutEmail } from '../../platform/mail';
import type { ModerationDeps } from './deps';

/** The bell's notice to a member whose report was decided (context: the outcome). */
export const REPORT_OUTCOME_TYPE = 'moderation.report';

/** What a reporter hears: the item was removed, or reviewed and kept (dismissed or restored). */
export type ReportOutcome = 'removed' | 'kept';

/** The reporter columns of the reports a decision closed (`returning ${REPORTER_COLUMNS}`). */
export const REPORTER_COLUMNS = 'reporter_id, reporter_name, reporter_email, reporter_language';
export interface ClosedReport {
  reporter_id: string | null;
  reporter_name: string | null;
  reporter_email: string | null;
  reporter_language: string | null;
}

export interface DecidedItem {
  kind: string;
  id: string;
  title: string | null;
  link: string | null;
}

/** A visitor's address after the privacy erasure (privacy/erase.ts): nobody to write to. */
const ERASED = /@deleted\.invalid$/i;

/**
 * Tells every reporter of an item the outcome of the decision that closed their reports, once per
 * reporter, never naming the moderator (no actor) nor the other reporters: members in the bell
 * and, when their e-mail switches allow, by an e-mail in their language at once; visitors (who
 * reported illegal content with a name and an e-mail) by e-mail only, in the language they
 * reported in. Never throws into the decision: failures are logged.
 */
export function createReportOutcome(
  deps: Pick<ModerationDeps, 'database' | 'mailer' | 'publicUrl' | 'log' | 'notifications'>,
) {
  const { database, mailer, publicUrl, log, notifications } = deps;
  notifications?.defineType({
    type: REPORT_OUTCOME_TYPE,
    defaults: { inApp: true, email: true },
    ownEmail: true,
    link: (n) =>
      typeof n.data.link === 'string' && n.data.link
        ? n.data.link
        : `/profile/${encodeURIComponent(n.recipientId)}/notifications`,
  });

  const titleOf = (lang: Language, item: DecidedItem) =>
    (item.title ?? '').trim().slice(0, 200) || t(lang, `moderation.kinds.${item.kind}`);

  async function mail(
    lang: Language,
    to: { email: string; name: string },
    outcome: ReportOutcome,
    item: DecidedItem,
  ) {
    const vars = { kind: t(lang, `moderation.kinds.${item.kind}`), title: titleOf(lang, item) };
    const see = outcome === 'kept' && item.link;
    await mailer.send(
      layoutEmail({
        lang,
        to: to.email,
        subject: t(lang, `moderation.reportOutcome.subject_${outcome}`, vars),
        greeting: t(lang, 'auth.email.greeting', {
          name: greetingName(to.name, to.email),
        }),
        intro: t(lang, `moderation.reportOutcome.intro_${outcome}`, vars),
        action: {
          label: t(lang, see ? 'moderation.reportOutcome.see' : 'moderation.email.open'),
          link: see ? `${publicUrl}${item.link}` : `${publicUrl}/`,
        },
        note: t(lang, 'moderation.reportOutcome.note'),
        signature: t(lang, 'auth.email.signature'),
      }),
    );
  }

  /** Tells a member; returns their address (a visitor report under it is theirs too). */
  async function tellMember(
    userId: string,
    outcome: ReportOutcome,
    item: DecidedItem,
  ): Promise<string | null> {
    const [member] = await database.query<{
      email: string;
      display_name: string;
      preferred_language: string;
    }>(
      `select email::text as email, display_name, preferred_language from users
       where id = $1 and account_status <> 'deleted'`,
      [userId],
    );
    if (!member) return null;
    const lang: Language = isLanguage(member.preferred_language) ? member.preferred_language : 'it';
    await notifications?.notify({
      recipientId: userId,
      type: REPORT_OUTCOME_TYPE,
      subject: { type: item.kind, id: item.id },
      data: {
        context: outcome,
        kind: item.kind,
        title: titleOf(lang, item),
        // A removed item has no page left to open.
        link: outcome === 'kept' ? item.link : null,
      },
    });
    if (notifications && (await notifications.emailWanted(userId, REPORT_OUTCOME_TYPE)))
      await mail(lang, { email: member.email, name: member.display_name }, outcome, item);
    return member.email;
  }

  return async function tellReporters(
    reports: readonly ClosedReport[],
    outcome: ReportOutcome,
    item: DecidedItem,
  ): Promise<void> {
    const members = new Set<string>();
    const visitors = new Map<string, { email: string; name: string; lang: Language }>();
    for (const r of reports) {
      if (r.reporter_id) members.add(r.reporter_id);
      else if (r.reporter_email && !ERASED.test(r.reporter_email))
        visitors.set(r.reporter_email.toLowerCase(), {
          email: r.reporter_email,
          name: r.reporter_name ?? '',
          lang: isLanguage(r.reporter_language) ? r.reporter_language : 'it',
        });
    }
    const tell = async <T>(who: string, send: () => Promise<T>) => {
      try {
        return await send();
      } catch (err) {
        log.error({ err, kind: item.kind, itemId: item.id, who }, 'report outcome not sent');
        return null;
      }
    };
    for (const id of members) {
      // Once per person: a report they sent as a visitor before signing up is told with this.
      const email = await tell(id, () => tellMember(id, outcome, item));
      if (email) visitors.delete(email.toLowerCase());
    }
    for (const v of visitors.values()) await tell('visitor', () => mail(v.lang, v, outcome, item));
  };
}
