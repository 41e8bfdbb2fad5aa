import type { Language } from '@shared/constants';
import { pageTitle } from '@shared/format';
import { formatMoney } from '@shared/money';
import type { Condition, ListingDetail, ListingStatus } from '@shared/marketplace';
import { t } from '../../platform/i18n';
import type { Database } from '../../db/client';
import type { PageHeads } from '../../platform/spa';
import { escapeHtml, jsonForScript, truncate } from './html';
import { findBookHead, findProfileHead, type BookHead, type ProfileHead } from './queries';
import type { HeadContext, PageHead } from './page-head';
import { workHead } from './work-head';

const DESCRIPTION_MAX = 200;
const OG_LOCALES: Record<Language, string> = { it: 'it_IT', en: 'en_GB' };

/** Public pages without data: the same title the page itself sets, and its own subtitle. */
const STATIC_PAGES: Record<string, { title: string; description?: string }> = {
  '/': { title: 'home.pageTitle', description: 'home.subtitle' },
  '/about': { title: 'about.pageTitle', description: 'about.subtitle' },
  '/contact': { title: 'contact.pageTitle', description: 'contact.subtitle' },
  '/library': { title: 'library.pageTitle', description: 'library.subtitle' },
  '/trade': { title: 'library.tradeTitle', description: 'library.tradeSubtitle' },
  '/buy': { title: 'shelves.pageTitle', description: 'shelves.subtitle' },
  '/sell': { title: 'sell.pageTitle', description: 'sell.subtitle' },
  '/privacy-policy': { title: 'legal.privacy.title', description: 'legal.privacy.intro' },
  '/privacy_policy': { title: 'legal.privacy.title', description: 'legal.privacy.intro' },
  '/terms-of-service': { title: 'legal.terms.title', description: 'legal.terms.intro' },
  '/cookie-policy': { title: 'legal.cookies.title', description: 'legal.cookies.intro' },
  '/login': { title: 'auth.login.pageTitle' },
  '/signup': { title: 'auth.signup.pageTitle' },
};

/** Paths that are nobody's business but the member's: never indexed, never canonical. */
const PRIVATE_PATHS = ['/profile', '/reset-password', '/auth'];

const CONDITION_SCHEMA: Record<Condition, string> = {
  new: 'https://schema.org/NewCondition',
  likeNew: 'https://schema.org/UsedCondition',
  good: 'https://schema.org/UsedCondition',
  fair: 'https://schema.org/UsedCondition',
  poor: 'https://schema.org/UsedCondition',
};
const AVAILABILITY_SCHEMA: Record<ListingStatus, string> = {
  available: 'https://schema.org/InStock',
  reserved: 'https://schema.org/OutOfStock',
  unavailable: 'https://schema.org/OutOfStock',
  sold: 'https://schema.org/SoldOut',
  traded: 'https://schema.org/SoldOut',
};

/** The head of the page at `path` (no query string): looks up the listing or member it shows. */
export async function describePage(path: string, ctx: HeadContext): Promise<PageHead> {
  const book = /^\/library\/book\/([^/]+)$/.exec(path);
  if (book) {
    const found = await findBookHead(ctx.database, decode(book[1]));
    return found ? bookHead(found, ctx) : notFoundHead(ctx);
  }
  const work = /^\/books\/([^/]+)$/.exec(path);
  if (work) return (await workHead(decode(work[1]), ctx)) ?? notFoundHead(ctx);
  const user = /^\/user\/([^/]+)(\/books)?$/.exec(path);
  if (user) {
    const found = await findProfileHead(ctx.database, decode(user[1]), ctx.now?.());
    return found ? profileHead(found, Boolean(user[2]), path, ctx) : notFoundHead(ctx);
  }
  return staticHead(path, ctx);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

const absolute = (publicUrl: string, url: string) =>
  /^https?:\/\//.test(url) ? url : `${publicUrl}${url.startsWith('/') ? '' : '/'}${url}`;

function siteDescription(language: Language) {
  return t(language, 'seo.description');
}

function staticHead(path: string, { publicUrl, language }: HeadContext): PageHead {
  const page = STATIC_PAGES[path];
  const isPrivate = PRIVATE_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
  return {
    status: 200,
    title: page ? pageTitle(t(language, page.title)) : t(language, 'app.name'),
    description: truncate(
      page?.description ? t(language, page.description) : siteDescription(language),
      DESCRIPTION_MAX,
    ),
    canonical: page ? `${publicUrl}${path === '/' ? '/' : path}` : undefined,
    noindex: isPrivate || undefined,
    ogType: 'website',
  };
}

function notFoundHead({ language }: HeadContext): PageHead {
  return {
    status: 404,
    title: pageTitle(t(language, 'notFound.title')),
    description: siteDescription(language),
    noindex: true,
    ogType: 'website',
  };
}

function offerText(listing: ListingDetail, language: Language): string {
  if (listing.status !== 'available')
    return t(language, `statuses.${listing.status}`).toLocaleLowerCase(language);
  const price =
    listing.price !== null ? formatMoney(listing.price, listing.currency, language) : null;
  if (listing.listingType === 'trade' || price === null) return t(language, 'seo.book.forTrade');
  if (listing.listingType === 'both') return t(language, 'seo.book.forSaleOrTrade', { price });
  return t(language, 'seo.book.forSale', { price });
}

function bookHead({ listing, sellerPublic }: BookHead, ctx: HeadContext): PageHead {
  const { publicUrl, language } = ctx;
  const url = `${publicUrl}/library/book/${encodeURIComponent(listing.id)}`;
  const image = listing.coverUrl ? absolute(publicUrl, listing.coverUrl) : undefined;
  const summary = t(language, 'seo.book.description', {
    title: listing.title,
    author: listing.author,
    condition: t(language, `conditions.${listing.condition}`),
    offer: offerText(listing, language),
  });
  const description = truncate(
    listing.description ? `${summary} ${listing.description}` : summary,
    DESCRIPTION_MAX,
  );
  const sellerUrl = `${publicUrl}/user/${encodeURIComponent(listing.seller.id)}`;
  const offer: Record<string, unknown> = {
    '@type': 'Offer',
    url,
    ...(listing.price !== null && listing.listingType !== 'trade'
      ? { price: listing.price.toFixed(2), priceCurrency: listing.currency }
      : {}),
    itemCondition: CONDITION_SCHEMA[listing.condition],
    availability: AVAILABILITY_SCHEMA[listing.status],
    ...(sellerPublic
      ? { seller: { '@type': 'Person', name: listing.seller.displayName, url: sellerUrl } }
      : {}),
  };
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Book',
    name: listing.title,
    author: { '@type': 'Person', name: listing.author },
    ...(listing.isbn ? { isbn: listing.isbn } : {}),
    ...(image ? { image } : {}),
    url,
    description,
    offers: offer,
  };
  return {
    status: 200,
    title: pageTitle(t(language, 'library.pageTitle'), listing.title),
    ogTitle: `${listing.title} - ${listing.author}`,
    description,
    canonical: url,
    ogType: 'book',
    image,
    og: listing.isbn ? [['book:isbn', listing.isbn]] : [],
    jsonLd,
  };
}

function profileHead(
  profile: ProfileHead,
  books: boolean,
  path: string,
  ctx: HeadContext,
): PageHead {
  const { publicUrl, language } = ctx;
  const titleKey = books ? 'userProfile.booksTitle' : 'userProfile.pageTitle';
  if (!profile.public) {
    return {
      status: 200,
      title: pageTitle(t(language, titleKey)),
      description: siteDescription(language),
      noindex: true,
      ogType: 'profile',
    };
  }
  const url = `${publicUrl}${path}`;
  const image = profile.avatarUrl ? absolute(publicUrl, profile.avatarUrl) : undefined;
  // Only reviews rate a member: a new member's description gives no figure (the rating rule).
  const description = t(
    language,
    profile.rating.average === null ? 'seo.profile.descriptionNew' : 'seo.profile.description',
    {
      name: profile.displayName || (profile.username ? `@${profile.username}` : ''),
      books: profile.booksListed,
      trades: profile.totalTrades,
      rating: profile.rating.average,
      count: profile.rating.reviewCount,
    },
  );
  return {
    status: 200,
    title: pageTitle(t(language, titleKey), profile.displayName),
    ogTitle: profile.displayName,
    description,
    canonical: url,
    ogType: 'profile',
    image,
    og: profile.username ? [['profile:username', profile.username]] : [],
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'ProfilePage',
      url,
      mainEntity: {
        '@type': 'Person',
        name: profile.displayName,
        ...(profile.username ? { alternateName: profile.username } : {}),
        ...(image ? { image } : {}),
        url: `${publicUrl}/user/${encodeURIComponent(profile.id)}`,
      },
    },
  };
}

/** The tags that go into <head>, every value escaped. */
export function renderHead(head: PageHead, language: Language): string {
  const meta = (attr: 'name' | 'property', key: string, content: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;
  const siteName = t(language, 'app.name');
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', head.description),
    ...(head.canonical ? [`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`] : []),
    ...(head.noindex ? [meta('name', 'robots', 'noindex')] : []),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:locale', OG_LOCALES[language]),
    meta('property', 'og:type', head.ogType),
    meta('property', 'og:title', head.ogTitle ?? head.title),
    meta('property', 'og:description', head.description),
    ...(head.canonical ? [meta('property', 'og:url', head.canonical)] : []),
    ...(head.image ? [meta('property', 'og:image', head.image)] : []),
    ...(head.og ?? []).map(([key, value]) => meta('property', key, value)),
    meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.ogTitle ?? head.title),
    meta('name', 'twitter:description', head.description),
    ...(head.image ? [meta('name', 'twitter:image', head.image)] : []),
    ...(head.jsonLd
      ? [`<script type="application/ld+json">${jsonForScript(head.jsonLd)}</script>`]
      : []),
  ];
  return tags.join('\n    ');
}

/** The seo module's page heads for the platform's single-page app (platform/spa). */
export function pageHeads(deps: {
  database: Database;
  publicUrl: string;
  now?: () => Date;
}): PageHeads {
  return async (path, language) => {
    const head = await describePage(path, { ...deps, language });
    return { status: head.status, head: renderHead(head, language) };
  };
}
