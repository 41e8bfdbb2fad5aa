import { publishedReview } from '../reviews';
import { exportPayments } from '../payments';
import type { Query } from '../../db/tx';

/**
 * "Download my data" (GDPR articles 15 and 20): everything a member created or that is about
 * them, one set-based query per section. Other members appear only by their public username
 * (null once they deleted their account); nothing private of anyone else is read: no other
 * e-mail, no message another member sent, no session token, no password hash, no OAuth token.
 */

/** SQL: the public username of the member in `column` (null for a deleted account). */
const publicUsername = (column: string) =>
  `(select case when pu.account_status = 'deleted' then null
     else coalesce(pu.display_username, pu.username::text) end
   from users pu where pu.id = ${column})`;

export const EXPORT_FORMAT_VERSION = 1;

/**
 * SQL: the member's address, only once verified. Rows matched by e-mail alone (contact messages
 * and reports sent as a visitor) are theirs only then: anyone can sign up with any address.
 */
const VERIFIED_EMAIL = `(select email::text from users where id = $1 and email_verified)`;

export async function buildExport(query: Query, userId: string, now: Date) {
  const one = async (sql: string) => (await query(sql, [userId]))[0] ?? null;
  const many = (sql: string) => query(sql, [userId]);

  const profile = await one(
    `select id, email::text as email, email_verified as "emailVerified",
       display_name as "displayName", username::text as username,
       display_username as "displayUsername", first_name as "firstName", last_name as "lastName",
       bio, avatar_url as "avatarUrl", location_city as "locationCity",
       location_country as "locationCountry", phone, date_of_birth as "dateOfBirth",
       account_status as "accountStatus", last_seen_at as "lastSeenAt",
       terms_accepted_at as "termsAcceptedAt", terms_version as "termsVersion",
       created_at as "createdAt", updated_at as "updatedAt"
     from users where id = $1`,
  );
  const settings = await one(
    `select preferred_language as "preferredLanguage", email_notifications as "emailNotifications",
       push_notifications as "pushNotifications", privacy_level as "privacyLevel"
     from users where id = $1`,
  );
  const notificationSettings = await many(
    `select type, in_app as "inApp", email, updated_at as "updatedAt"
     from notification_settings where user_id = $1 order by type`,
  );
  const signInMethods = await many(
    `select provider_id as provider, created_at as "createdAt"
     from accounts where user_id = $1 order by created_at`,
  );
  const sessions = await many(
    `select created_at as "createdAt", updated_at as "lastUsedAt", expires_at as "expiresAt",
       ip_address as "ipAddress", user_agent as "userAgent"
     from sessions where user_id = $1 order by created_at`,
  );
  const roles = await many(
    `select 'admin' as role, granted_at as "grantedAt" from admins where user_id = $1`,
  );

  const listings = await many(
    `select l.id, l.book_id as "bookId", l.title, l.author, l.genre, l.language, l.isbn,
       l.cover_url as "coverUrl", l.images, l.listing_type as "listingType", l.condition,
       l.price::float8 as price, l.currency, l.description, l.status, l.location,
       l.shipping_cost::float8 as "shippingCost", l.is_negotiable as "isNegotiable",
       l.shipping_address as "shippingAddress", l.hidden_at is not null as "hiddenByModerator",
       l.created_at as "createdAt", l.updated_at as "updatedAt"
     from book_listings l where l.user_id = $1 order by l.created_at, l.id`,
  );
  const transactions = await many(
    `select t.id, t.kind, t.status, case when t.buyer_id = $1 then 'buyer' else 'seller' end as role,
       t.listing_id as "listingId", l.title as "listingTitle",
       ${publicUsername('case when t.buyer_id = $1 then t.seller_id else t.buyer_id end')}
         as "otherParty",
       t.created_at as "createdAt"
     from transactions t left join book_listings l on l.id = t.listing_id
     where t.buyer_id = $1 or t.seller_id = $1 order by t.created_at, t.id`,
  );
  const offers = await many(
    `select o.id, o.listing_id as "listingId", o.room_id as "conversationId",
       case when o.buyer_id = $1 then 'buyer' else 'seller' end as role,
       ${publicUsername('case when o.buyer_id = $1 then o.seller_id else o.buyer_id end')}
         as "otherParty",
       o.amount::float8 as amount, o.currency, o.status, o.created_at as "createdAt",
       o.answered_at as "answeredAt", o.shipping_amount::float8 as "shippingAmount",
       (select coalesce(json_agg(ol.listing_id order by ol.listing_id), '[]'::json)
        from offer_listings ol where ol.offer_id = o.id) as "listingIds"
     from offers o where o.buyer_id = $1 or o.seller_id = $1 order by o.created_at, o.id`,
  );
  // Deals (issue 22): each accepted offer carried to its end, as buyer or seller.
  const deals = await many(
    `select d.id, d.offer_id as "offerId", d.room_id as "conversationId",
       case when d.buyer_id = $1 then 'buyer' else 'seller' end as role,
       ${publicUsername('case when d.buyer_id = $1 then d.seller_id else d.buyer_id end')}
         as "otherParty",
       d.method, d.status, d.created_at as "createdAt", d.ended_at as "endedAt",
       (select coalesce(json_agg(json_build_object('listingId', db.listing_id, 'title', db.title,
           'author', db.author, 'condition', db.condition, 'price', db.price::float8,
           'currency', db.currency) order by db.position), '[]'::json)
        from deal_books db where db.deal_id = d.id) as "booksAsAgreed"
     from deals d where d.buyer_id = $1 or d.seller_id = $1 order by d.created_at, d.id`,
  );
  // In-app payments (issue 36): their account, their deals' payments and ledger rows.
  const payments = await exportPayments(query, userId);
  // Only the messages this member sent: the other side's words are theirs, not ours to hand out.
  const messages = await many(
    `select m.id, m.room_id as "conversationId", m.type, m.content, m.listing_id as "listingId",
       m.offer_id as "offerId", m.created_at as "createdAt", m.edited_at as "editedAt",
       m.deleted_at as "deletedAt", m.removed_at is not null as "removedByModerator"
     from chat_messages m where m.sender_id = $1 order by m.created_at, m.id`,
  );
  const conversations = await many(
    `select r.id, r.is_group as "isGroup", case when r.is_group then r.name end as name,
       p.joined_at as "joinedAt", p.last_read_at as "lastReadAt"
     from chat_participants p join chat_rooms r on r.id = p.room_id
     where p.user_id = $1 order by p.joined_at, r.id`,
  );
  const connections = await many(
    `select c.status, case when c.requester_id = $1 then 'sent' else 'received' end as direction,
       ${publicUsername('case when c.requester_id = $1 then c.addressee_id else c.requester_id end')}
         as "member",
       c.created_at as "createdAt", c.updated_at as "updatedAt"
     from connections c where c.requester_id = $1 or c.addressee_id = $1
     order by c.created_at, c.id`,
  );
  // Only the members I blocked: who blocked me is not mine to know (blocking is silent).
  const blocks = await many(
    `select ${publicUsername('b.blocked_id')} as "member", b.created_at as "createdAt"
     from blocks b where b.blocker_id = $1 order by b.created_at, b.blocked_id`,
  );
  const posts = await many(
    `select p.id, p.book_id as "bookId", p.title, p.content, p.post_type as "postType", p.tags,
       p.image_url as "imageUrl", p.status, p.is_edited as "isEdited",
       p.created_at as "createdAt", p.updated_at as "updatedAt"
     from community_posts p where p.user_id = $1 order by p.created_at, p.id`,
  );
  const comments = await many(
    `select c.id, c.post_id as "postId", c.parent_comment_id as "parentCommentId", c.content,
       c.status, c.is_edited as "isEdited", c.created_at as "createdAt", c.updated_at as "updatedAt"
     from post_comments c where c.user_id = $1 order by c.created_at, c.id`,
  );
  const reactions = await many(
    `select 'post' as target, post_id::text as id, reaction, created_at as "createdAt"
       from post_reactions where user_id = $1
     union all
     select 'comment', comment_id::text, reaction, created_at
       from comment_reactions where user_id = $1
     order by 4, 2`,
  );
  const wishlists = await many(
    `select w.id, w.name, w.description, w.is_default as "isDefault", w.created_at as "createdAt",
       coalesce((select json_agg(json_build_object('bookId', i.book_id, 'workId', i.work_id,
           'title', i.title,
           'author', i.author, 'isbn13', i.isbn_13, 'isbn10', i.isbn_10, 'addedAt', i.created_at)
           order by i.created_at, i.id)
         from wishlist_items i where i.wishlist_id = w.id), '[]'::json) as items
     from wishlists w where w.user_id = $1 order by w.created_at, w.id`,
  );
  // Watched listings (the listing as its title and author: it may be another member's).
  const watches = await many(
    `select w.listing_id as "listingId", l.title, l.author, w.created_at as "watchedAt"
     from listing_watches w join book_listings l on l.id = w.listing_id
     where w.user_id = $1 order by w.created_at, w.listing_id`,
  );
  // Saved searches with their filters, and the listings they found for the member (as title and
  // author: another member's), with when they were found and e-mailed in the daily digest.
  const savedSearches = await many(
    `select s.id, s.name, s.q, s.author, s.genre, s.listing_type as "listingType", s.condition,
       s.min_price::float8 as "minPrice", s.max_price::float8 as "maxPrice", s.notify,
       s.created_at as "createdAt", s.updated_at as "updatedAt"
     from saved_searches s where s.user_id = $1 order by s.created_at, s.id`,
  );
  const savedSearchMatches = await many(
    `select m.listing_id as "listingId", l.title, l.author, m.search_name as "searchName",
       m.matched_at as "matchedAt", m.emailed_at as "emailedAt"
     from saved_search_matches m join book_listings l on l.id = m.listing_id
     where m.user_id = $1 order by m.matched_at, m.listing_id`,
  );
  const holidays = await many(
    `select h.away_until as "awayUntil", h.auto_reply as "autoReply", h.created_at as "createdAt"
     from member_holidays h where h.user_id = $1`,
  );
  // Saved shipping addresses (sale by post, decision 0074).
  const addresses = await many(
    `select a.name, a.street, a.postal_code as "postalCode", a.city, a.region, a.country, a.phone,
       a.created_at as "createdAt"
     from member_addresses a where a.user_id = $1 order by a.created_at, a.id`,
  );
  const reviewsWritten = await many(
    `select r.id, r.transaction_id as "transactionId", ${publicUsername('r.subject_id')} as "about",
       r.rating, r.text, r.created_at as "createdAt", r.updated_at as "updatedAt",
       r.published_at as "publishedAt"
     from reviews r where r.author_id = $1 order by r.created_at, r.id`,
  );
  // Received: only those published (double-blind, decision 0073); mine, pending ones too.
  const reviewsReceived = await query(
    `select r.id, r.transaction_id as "transactionId", ${publicUsername('r.author_id')} as "by",
       r.rating, r.text, r.created_at as "createdAt", r.updated_at as "updatedAt"
     from reviews r where r.subject_id = $1 and ${publishedReview('r', '$2')}
     order by r.created_at, r.id`,
    [userId, now],
  );
  const bookReviewsOnAds = await many(
    `select r.id, r.ad_id as "adId", r.rating, r.review_text as text,
       r.verified_purchase as "verifiedPurchase", r.created_at as "createdAt"
     from ad_book_reviews r where r.reviewer_id = $1 order by r.created_at, r.id`,
  );
  // Analytics as the author sees them: daily aggregates, never the per-viewer events.
  const advertisements = await many(
    `select a.id, a.title, a.subtitle, a.description, a.genre, a.language, a.isbn13, a.publisher,
       a.publication_year as "publicationYear", a.page_count as "pageCount", a.ad_type as "adType",
       a.keywords, a.target_audience as "targetAudience", a.cover_image_url as "coverImageUrl",
       a.promotional_images as "promotionalImages", a.trailer_video_url as "trailerVideoUrl",
       a.sample_chapter_url as "sampleChapterUrl", a.author_website_url as "authorWebsiteUrl",
       a.social_links as "socialLinks", a.purchase_links as "purchaseLinks",
       a.book_price::float8 as "bookPrice", a.currency, a.daily_budget::float8 as "dailyBudget",
       a.total_budget::float8 as "totalBudget", a.status, a.start_date::text as "startDate",
       a.end_date::text as "endDate", a.view_count as "viewCount", a.click_count as "clickCount",
       a.conversion_count as "conversionCount", a.created_at as "createdAt",
       a.updated_at as "updatedAt",
       coalesce((select json_agg(json_build_object('day', s.day::text,
           'impressions', s.impressions, 'clicks', s.clicks, 'conversions', s.conversions)
           order by s.day)
         from ad_daily_stats s where s.ad_id = a.id), '[]'::json) as "dailyStats"
     from book_advertisements a where a.author_id = $1 order by a.created_at, a.id`,
  );
  const notifications = await many(
    `select n.id, n.type, ${publicUsername('n.actor_id')} as actor, n.actor_count as "actorCount",
       n.subject_type as "subjectType", n.subject_id as "subjectId", n.data,
       n.read_at as "readAt", n.created_at as "createdAt", n.updated_at as "updatedAt"
     from notifications n where n.recipient_id = $1 order by n.created_at, n.id`,
  );
  const reportsFiled = await many(
    `select r.id, r.kind, r.item_id as "itemId", r.reason, r.text, r.status,
       r.created_at as "createdAt", r.resolved_at as "resolvedAt"
     from reports r
     where r.reporter_id = $1
        or (r.reporter_id is null and lower(r.reporter_email::text) = lower(${VERIFIED_EMAIL}))
     order by r.created_at, r.id`,
  );
  const contactMessages = await many(
    `select c.id, c.name, c.subject, c.message, c.created_at as "createdAt"
     from contact_messages c where lower(c.email) = lower(${VERIFIED_EMAIL})
     order by c.created_at, c.id`,
  );

  return {
    format: 'scaffale-export',
    version: EXPORT_FORMAT_VERSION,
    exportedAt: now.toISOString(),
    notes: [
      'Other members appear only by their public username (null when their account was deleted).',
      'Messages: only the messages you sent; the other participants’ messages are theirs.',
      'Cookie preferences are kept only in your browser, not on our servers.',
    ],
    profile,
    account: { settings, notificationSettings, signInMethods, sessions, roles },
    listings,
    transactions,
    offers,
    deals,
    payments,
    messages,
    conversations,
    connections,
    blocks,
    posts,
    comments,
    reactions,
    wishlists,
    watches,
    savedSearches: { searches: savedSearches, matches: savedSearchMatches },
    holiday: holidays[0] ?? null,
    addresses,
    reviews: { written: reviewsWritten, received: reviewsReceived, bookReviewsOnAds },
    advertisements,
    notifications,
    reportsFiled,
    contactMessages,
  };
}
