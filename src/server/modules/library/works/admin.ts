import { isUuid } from '@shared/schemas/common';
import { MODERATION_REASON_MAX, type ModerationAction } from '@shared/moderation';
import type { WorkPatch } from '@shared/works';
import type { Database } from '../../../db/client';
import { sql } from '../../../db/sql';
import { inTransaction, type Query } from '../../../db/tx';
import { notFound, validationFailed } from '../../../platform/errors';
import { type Moderator, writeModerationLog } from '../../../platform/moderation';

export const workNotFound = () => notFound('works.errors.notFound');

/** SQL: a work's titles, one `language: title` a part, for the moderation log. */
const TITLES_OF = `coalesce((select string_agg(t.language || ': «' || t.title || '»', ', '
  order by t.language) from work_titles t where t.work_id = $1), '')`;

/**
 * One row of the moderation log for an admin's correction of a work (issue 35, decision 0095):
 * `kind` 'work' (or 'book' for a moved edition), the item, and what changed as its text.
 */
function logWork(
  q: Query,
  actor: Moderator,
  action: Extract<ModerationAction, 'edit_work' | 'move_book' | 'merge_works'>,
  item: { kind: 'work' | 'book'; id: string },
  change: string,
) {
  const text = change.length > MODERATION_REASON_MAX ? `${change.slice(0, 1999)}…` : change;
  return writeModerationLog(q, actor, action, { kind: item.kind, itemId: item.id }, text);
}

const quoted = (s: string | number | null | undefined) =>
  s === null || s === undefined ? '—' : typeof s === 'number' ? String(s) : `«${s}»`;

/**
 * An admin's correction of a work: only the fields sent change; a title per language code (null
 * removes it), never the last one. The work's listings' search words follow its titles (the
 * triggers of migration 0053). The work row is locked first, so two corrections apply in turn.
 * What changed is written to the moderation log (nothing when nothing did).
 */
export async function patchWork(
  database: Database,
  actor: Moderator,
  id: string,
  patch: WorkPatch,
): Promise<void> {
  if (!isUuid(id)) throw workNotFound();
  await inTransaction(database, async (q) => {
    const [work] = await q<{ author: string; first_year: number | null }>(
      'select author, first_year from works where id = $1 for update',
      [id],
    );
    if (!work) throw workNotFound();
    const before = await q<{ language: string; title: string }>(
      'select language, title from work_titles where work_id = $1',
      [id],
    );
    const changes: string[] = [];
    const sets = [sql`updated_at = now()`];
    if (patch.author !== undefined && patch.author !== work.author) {
      sets.push(sql`author = ${patch.author}`);
      changes.push(`author: ${quoted(work.author)} → ${quoted(patch.author)}`);
    }
    if (patch.firstYear !== undefined && patch.firstYear !== work.first_year) {
      sets.push(sql`first_year = ${patch.firstYear}`);
      changes.push(`year: ${quoted(work.first_year)} → ${quoted(patch.firstYear)}`);
    }
    await q(sql`update works set ${sql.join(sets)} where id = ${id}`);
    const titles = Object.entries(patch.titles ?? {});
    const removed = titles.filter(([, t]) => t === null).map(([language]) => language);
    const set = titles.filter((e): e is [string, string] => e[1] !== null);
    if (removed.length)
      await q('delete from work_titles where work_id = $1 and language = any($2::text[])', [
        id,
        removed,
      ]);
    for (const [language, title] of set)
      await q(
        `insert into work_titles (work_id, language, title) values ($1, $2, $3)
         on conflict (work_id, language) do update set title = excluded.title
           where work_titles.title <> excluded.title`,
        [id, language, title],
      );
    const [{ n }] = await q<{ n: number }>(
      'select count(*)::int as n from work_titles where work_id = $1',
      [id],
    );
    if (n === 0) throw validationFailed({ titles: 'works.errors.titleRequired' });
    const old = new Map(before.map((t) => [t.language, t.title]));
    for (const [language, title] of titles)
      if ((old.get(language) ?? null) !== title && (old.has(language) || title !== null))
        changes.push(`${language}: ${quoted(old.get(language))} → ${quoted(title)}`);
    if (changes.length)
      await logWork(q, actor, 'edit_work', { kind: 'work', id }, changes.join('; '));
  });
}

/**
 * An admin puts a catalogue book (an edition) in another work, or in a new one of its own
 * (`workId` 'new': its title in its language, its author): the book's listings that followed it
 * move with it (migration 0053). Logged with both works. Returns the book's work.
 */
export async function moveBook(
  database: Database,
  actor: Moderator,
  bookId: string,
  workId: string,
) {
  if (!isUuid(bookId) || (workId !== 'new' && !isUuid(workId))) throw workNotFound();
  return inTransaction(database, async (q: Query) => {
    const [book] = await q<{
      id: string;
      title: string;
      author: string;
      lang: string;
      work_id: string | null;
    }>(
      `select id, title, author, coalesce(language_code(language), 'und') as lang, work_id
       from books where id = $1 for update`,
      [bookId],
    );
    if (!book) throw notFound('works.errors.bookNotFound');
    let target = workId;
    if (workId === 'new') {
      [{ id: target }] = await q<{ id: string }>(
        'insert into works (author) values ($1) returning id',
        [book.author],
      );
      await q('insert into work_titles (work_id, language, title) values ($1, $2, $3)', [
        target,
        book.lang,
        book.title,
      ]);
    } else {
      const [work] = await q('select id from works where id = $1 for share', [workId]);
      if (!work) throw workNotFound();
    }
    if (book.work_id !== target) {
      await q('update books set work_id = $2, updated_at = now() where id = $1', [bookId, target]);
      const [from] = book.work_id
        ? await q<{ t: string }>(`select ${TITLES_OF} as t`, [book.work_id])
        : [];
      const [to] = await q<{ t: string }>(`select ${TITLES_OF} as t`, [target]);
      await logWork(
        q,
        actor,
        'move_book',
        { kind: 'book', id: bookId },
        `${quoted(book.title)}, ${book.author}: ${book.work_id ?? '—'} (${from?.t ?? ''}) → ` +
          `${target}${workId === 'new' ? ' (new)' : ''} (${to.t})`,
      );
    }
    return { bookId, workId: target };
  });
}

/**
 * Merges work `fromId` into work `keepId` (the one kept): its books, and the listings with them
 * (and those an admin put in it), its titles in the languages the kept work lacks, its first
 * year when the kept one has none, and the members' wishes for it (one per list) go to the kept
 * work; then it is deleted. Both rows are locked in id order, so two merges of the same works at
 * once apply in turn (the second finds one gone: 404). Logged with both works' titles.
 */
export async function mergeWorks(
  database: Database,
  actor: Moderator,
  keepId: string,
  fromId: string,
): Promise<void> {
  if (!isUuid(keepId) || !isUuid(fromId)) throw workNotFound();
  if (keepId.toLowerCase() === fromId.toLowerCase())
    throw validationFailed({ from: 'works.errors.mergeSame' });
  await inTransaction(database, async (q) => {
    const rows = await q<{ id: string; first_year: number | null; author: string }>(
      'select id, first_year, author from works where id = any($1::uuid[]) order by id for update',
      [[keepId, fromId]],
    );
    if (rows.length !== 2) throw workNotFound();
    const from = rows.find((r) => r.id === fromId.toLowerCase())!;
    const [{ t: fromTitles }] = await q<{ t: string }>(`select ${TITLES_OF} as t`, [fromId]);
    await q(
      `insert into work_titles (work_id, language, title)
       select $1, language, title from work_titles where work_id = $2
       on conflict (work_id, language) do nothing`,
      [keepId, fromId],
    );
    await q(
      'update works set first_year = coalesce(first_year, $2), updated_at = now() where id = $1',
      [keepId, from.first_year],
    );
    await q('update books set work_id = $1, updated_at = now() where work_id = $2', [
      keepId,
      fromId,
    ]);
    await q('update book_listings set work_id = $1 where work_id = $2', [keepId, fromId]);
    // The wishes for it (the wishlist's table): one per list, the kept work's where both are.
    await q(
      `delete from wishlist_items i where i.work_id = $2 and exists (
         select 1 from wishlist_items k where k.wishlist_id = i.wishlist_id and k.work_id = $1)`,
      [keepId, fromId],
    );
    await q('update wishlist_items set work_id = $1 where work_id = $2', [keepId, fromId]);
    await q('delete from works where id = $1', [fromId]);
    const [{ t: keptTitles }] = await q<{ t: string }>(`select ${TITLES_OF} as t`, [keepId]);
    await logWork(
      q,
      actor,
      'merge_works',
      { kind: 'work', id: keepId },
      `${fromId} (${fromTitles}, ${from.author}) → ${keepId} (${keptTitles})`,
    );
  });
}
