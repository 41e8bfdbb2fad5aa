import { isUuid } from '@shared/schemas/common';
import {
  ADMIN_WORKS_PAGE_SIZE,
  ADMIN_WORK_BOOKS_PAGE_SIZE,
  type AdminWork,
  type AdminWorkBook,
} from '@shared/works';
import type { Query } from '../../../db/tx';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

interface WorkRow {
  id: string;
  author: string;
  first_year: number | null;
  titles: { language: string; title: string }[];
  books: number;
  copies: number;
  total?: number;
}

/** SQL: the columns of a work `w` on the admins' screen; `$lang` the reader's language. */
const workColumns = (lang: string) => `w.id, w.author, w.first_year,
  coalesce((select json_agg(json_build_object('language', t.language, 'title', t.title)
                            order by t.language = ${lang} desc, t.language)
            from work_titles t where t.work_id = w.id), '[]') as titles,
  (select count(*)::int from books b where b.work_id = w.id) as books,
  (select count(*)::int from book_listings l
   where l.work_id = w.id and l.status = 'available') as copies`;

const toWork = (r: WorkRow): AdminWork => ({
  id: r.id,
  title: r.titles[0]?.title ?? '',
  titles: r.titles,
  author: r.author,
  firstYear: r.first_year,
  books: r.books,
  copies: r.copies,
});

/**
 * The admins' search of works: those with a title (in any language) or an author containing
 * the words typed (case and accents aside; trigram indexes of migration 0055), an exact title
 * first, then by author and title; every work, newest first, when nothing is typed. A page.
 */
export async function searchWorks(
  q: Query,
  text: string,
  page: number,
  language: string,
): Promise<{ items: AdminWork[]; total: number }> {
  const typed = text.trim();
  const like = `%${escapeLike(typed)}%`;
  const rows = await q<WorkRow>(
    `select ${workColumns('$4')}, count(*) over ()::int as total
     from works w
     where $1 = '' or w.author_norm like lower(immutable_unaccent($1))
        or exists (select 1 from work_titles t where t.work_id = w.id
                   and t.title_norm like lower(immutable_unaccent($1)))
     order by case when $5 = '' then 0
                   when exists (select 1 from work_titles t where t.work_id = w.id
                                and t.title_norm = lower(immutable_unaccent($5))) then 0 else 1 end,
       case when $5 = '' then w.created_at end desc, w.author_norm, w.id
     limit $2 offset $3`,
    [typed ? like : '', ADMIN_WORKS_PAGE_SIZE, (page - 1) * ADMIN_WORKS_PAGE_SIZE, language, typed],
  );
  if (rows.length === 0 && page > 1) {
    const [{ n }] = await q<{ n: number }>(
      `select count(*)::int as n from works w
       where $1 = '' or w.author_norm like lower(immutable_unaccent($1))
          or exists (select 1 from work_titles t where t.work_id = w.id
                     and t.title_norm like lower(immutable_unaccent($1)))`,
      [typed ? like : ''],
    );
    return { items: [], total: n };
  }
  return { items: rows.map(toWork), total: rows[0]?.total ?? 0 };
}

/** A work on the admins' screen and a page of its catalogue books; null when there is none. */
export async function adminWork(
  q: Query,
  id: string,
  page: number,
  language: string,
): Promise<{ work: AdminWork; books: AdminWorkBook[] } | null> {
  if (!isUuid(id)) return null;
  const [row] = await q<WorkRow>(`select ${workColumns('$2')} from works w where w.id = $1`, [
    id,
    language,
  ]);
  if (!row) return null;
  const books = await q<{
    id: string;
    title: string;
    author: string;
    language: string | null;
    isbn: string | null;
    listings: number;
    available: number;
  }>(
    `select b.id, b.title, b.author, language_code(b.language) as language,
       coalesce(b.isbn_13, b.isbn_10) as isbn,
       (select count(*)::int from book_listings l where l.book_id = b.id) as listings,
       (select count(*)::int from book_listings l
        where l.book_id = b.id and l.status = 'available') as available
     from books b where b.work_id = $1
     order by b.created_at, b.id limit $2 offset $3`,
    [id, ADMIN_WORK_BOOKS_PAGE_SIZE, (page - 1) * ADMIN_WORK_BOOKS_PAGE_SIZE],
  );
  return { work: toWork(row), books };
}
