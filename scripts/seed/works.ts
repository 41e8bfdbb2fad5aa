import type { SeedStep } from './types';
import { demoWorks } from '../data/demo-works';

/**
 * The demo works (scripts/data/demo-works.ts): the works the listings' books got (one per title
 * and author, made with their first listing) joined into one per demo work, with its Italian and
 * English titles and its year, as an admin would fix them. Running it again changes nothing.
 */
export const seedWorks: SeedStep = async ({ database, log }) => {
  let joined = 0;
  for (const work of demoWorks) {
    const found = await database.query<{ id: string }>(
      `select distinct w.id, w.created_at from works w join work_titles t on t.work_id = w.id
       where t.title_norm = any(array[lower(immutable_unaccent($1)), lower(immutable_unaccent($2))])
         and w.author_norm = lower(immutable_unaccent($3))
       order by w.created_at, w.id`,
      [work.it, work.en, work.author],
    );
    let target = found[0]?.id;
    if (!target) {
      [{ id: target }] = await database.query<{ id: string }>(
        `insert into works (author, first_year) values ($1, $2) returning id`,
        [work.author, work.year],
      );
    }
    const others = found.slice(1).map((w) => w.id);
    if (others.length) {
      // Their books (and the listings that follow them) join the first; their listings an
      // admin moved too.
      await database.query(`update books set work_id = $1 where work_id = any($2::uuid[])`, [
        target,
        others,
      ]);
      await database.query(
        `update book_listings set work_id = $1 where work_id = any($2::uuid[])`,
        [target, others],
      );
      await database.query(`delete from works where id = any($1::uuid[])`, [others]);
      joined += others.length;
    }
    await database.query(
      `insert into work_titles (work_id, language, title)
       values ($1, 'it', $2), ($1, 'en', $3)
       on conflict (work_id, language) do update set title = excluded.title
         where work_titles.title <> excluded.title`,
      [target, work.it, work.en],
    );
    await database.query(
      `update works set first_year = $2, updated_at = now()
       where id = $1 and first_year is distinct from $2`,
      [target, work.year],
    );
  }
  log(`works: ${demoWorks.length} demo works, ${joined} joined`);
};
