import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { ListingCard } from '@shared/marketplace';
import { BookCover } from '../../components/BookCover';
import { TONES, TYPE_TONES } from './badges';
import { formatMoney } from '@shared/money';
import classes from './BookCard.module.css';

/** The language tag of a language's own name, for screen readers ("English": en). */
const TAGS: Record<string, string> = { italiano: 'it', english: 'en' };
const languageTag = (name: string) => TAGS[name.toLowerCase()];

/**
 * A listing in a grid or on a shelf; the whole card is one link to the detail page. `priority`
 * for the cards of the first row (see BookCover), `coverSizes` when the card is not a grid cell.
 *
 * Plain elements and one CSS module, drawn as Mantine's Card, Text and light Badge were: a page
 * shows 24 to 200 of them, and the ten Mantine components each card used (every one resolving
 * theme, props and styles) were most of /library's main-thread work after the data arrived.
 */
export function BookCard({
  listing,
  width,
  priority,
  coverSizes,
}: {
  listing: ListingCard;
  width?: number;
  priority?: boolean;
  coverSizes?: string;
}) {
  const { t, i18n } = useTranslation();
  const price = formatMoney(listing.price, listing.currency, i18n.language);
  const tone = TYPE_TONES[listing.listingType];
  return (
    <Link
      to={`/library/book/${listing.id}`}
      className={classes.card}
      style={width ? { width } : undefined}
      data-testid="book-card"
    >
      <BookCover
        url={listing.coverUrl}
        title={listing.title}
        author={listing.author}
        priority={priority}
        sizes={coverSizes}
      />
      <div className={classes.body}>
        <p className={classes.title}>{listing.title}</p>
        <p className={classes.author}>{listing.author}</p>
        <div className={classes.row}>
          <span
            className={classes.badge}
            style={{ color: TONES[tone], background: `var(--mantine-color-${tone}-light)` }}
          >
            {t(`listingTypes.${listing.listingType}`)}
          </span>
          {price && <span className={classes.price}>{price}</span>}
        </div>
        <p className={classes.condition}>
          {t(`conditions.${listing.condition}`)}
          {/* The copy's language: one work gathers its editions in every language. */}
          {listing.language && (
            <span lang={languageTag(listing.language)}> · {listing.language}</span>
          )}
        </p>
      </div>
    </Link>
  );
}
