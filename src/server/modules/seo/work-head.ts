import { pageTitle } from '@shared/format';
import { formatMoney } from '@shared/money';
import type { Condition } from '@shared/marketplace';
import { queryOf } from '../../db/tx';
import { t } from '../../platform/i18n';
import { findWork, workCopies } from '../library';
import { truncate } from './html';
import { PUBLIC_MEMBER } from './queries';
import type { HeadContext, PageHead } from './page-head';

const NEW = 'https://schema.org/NewCondition';
const USED = 'https://schema.org/UsedCondition';
const conditionOf = (c: Condition) => (c === 'new' ? NEW : USED);

/**
 * The head of /books/:workId: the work's title and author, and JSON-LD `Book` with an
 * `AggregateOffer` of its copies as a visitor sees them (each an `Offer`: its page, price,
 * condition, seller when their profile is public). Null when the work does not exist.
 */
export async function workHead(id: string, ctx: HeadContext): Promise<PageHead | null> {
  const { publicUrl, language, database } = ctx;
  const work = await findWork(queryOf(database), id, language);
  if (!work) return null;
  const copies = await workCopies(database, work.id, null, ctx.now?.() ?? new Date());
  const url = `${publicUrl}/books/${encodeURIComponent(work.id)}`;
  const priced = copies.filter((c) => c.price !== null && c.listingType !== 'trade');
  const low = priced[0];
  const vars = { title: work.title, author: work.author, count: copies.length };
  const description = truncate(
    low
      ? t(language, 'seo.work.descriptionFrom', {
          ...vars,
          count: priced.length,
          price: formatMoney(low.total ?? low.price!, low.currency, language) ?? '',
        })
      : copies.length
        ? t(language, 'seo.work.descriptionTrade', vars)
        : t(language, 'seo.work.descriptionNone', vars),
    200,
  );
  const image = work.coverUrl ? `${publicUrl}${work.coverUrl}` : undefined;
  // A seller is named only when their profile is public (as on a copy's own page).
  const named = new Set(
    (
      await database.query<{ id: string }>(
        `select id from users where id = any($1::text[]) and ${PUBLIC_MEMBER}`,
        [[...new Set(priced.map((c) => c.seller.id))]],
      )
    ).map((r) => r.id),
  );
  const offers = priced.map((c) => ({
    '@type': 'Offer',
    url: `${publicUrl}/library/book/${encodeURIComponent(c.id)}`,
    price: c.price!.toFixed(2),
    priceCurrency: c.currency,
    itemCondition: conditionOf(c.condition),
    availability: 'https://schema.org/InStock',
    ...(named.has(c.seller.id)
      ? {
          seller: {
            '@type': 'Person',
            name: c.seller.displayName,
            url: `${publicUrl}/user/${encodeURIComponent(c.seller.id)}`,
          },
        }
      : {}),
  }));
  const prices = priced.map((c) => c.price!);
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Book',
    name: work.title,
    ...(work.titles.length > 1
      ? { alternateName: work.titles.filter((x) => x.title !== work.title).map((x) => x.title) }
      : {}),
    author: { '@type': 'Person', name: work.author },
    ...(work.firstYear !== null ? { datePublished: String(work.firstYear) } : {}),
    ...(image ? { image } : {}),
    url,
    description,
    ...(offers.length
      ? {
          offers: {
            '@type': 'AggregateOffer',
            offerCount: offers.length,
            lowPrice: Math.min(...prices).toFixed(2),
            highPrice: Math.max(...prices).toFixed(2),
            priceCurrency: priced[0].currency,
            offers,
          },
        }
      : {}),
  };
  return {
    status: 200,
    title: pageTitle(t(language, 'library.pageTitle'), work.title),
    ogTitle: `${work.title} - ${work.author}`,
    description,
    canonical: url,
    ogType: 'book',
    image,
    jsonLd,
  };
}
