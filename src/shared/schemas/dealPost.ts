import { z } from 'zod';
import { pageNumber, requiredText } from './common';

/**
 * Sale by post (issue 22 item 1, decision 0074): the part of a deal that a parcel adds — the
 * buyer's address (shown to the seller of this deal only, while it is open), the carrier and
 * tracking number, the windows to confirm receipt or report a problem, and a problem's case.
 * Owned by modules/deals/post; the core (./deals.ts) carries it as `deal.post`. Messages are
 * locale keys under `deals.post.*`.
 */

/** After shipping, the buyer has at most this long to confirm or report a problem. */
export const POST_SHIPPED_WINDOW_DAYS = 14;
/** After marking it received, the buyer has this long to report a problem (if sooner). */
export const POST_RECEIVED_WINDOW_DAYS = 2;
/** A member keeps at most this many saved addresses. */
export const ADDRESSES_MAX = 10;
export const TRACKING_MAX = 40;
export const CASE_MESSAGE_MAX = 2000;
export const CASES_PAGE_SIZE = 20;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the buyer's window closes: 14 days after shipping, or 2 days after marking it received
 * when that comes first.
 */
export function postWindowEnd(shippedAt: Date, receivedAt: Date | null): Date {
  const shipped = shippedAt.getTime() + POST_SHIPPED_WINDOW_DAYS * DAY_MS;
  if (!receivedAt) return new Date(shipped);
  return new Date(Math.min(shipped, receivedAt.getTime() + POST_RECEIVED_WINDOW_DAYS * DAY_MS));
}

/** Italian and European carriers; 'other' for any else (no tracking link then). */
export const CARRIERS = [
  'poste_italiane',
  'brt',
  'gls',
  'sda',
  'dhl',
  'ups',
  'fedex',
  'tnt',
  'inpost',
  'nexive',
  'mondial_relay',
  'dpd',
  'royal_mail',
  'la_poste',
  'correos',
  'deutsche_post',
  'postnl',
  'other',
] as const;
export type Carrier = (typeof CARRIERS)[number];

/** Carriers' names are brands: the same in every language. */
export const CARRIER_NAMES: Record<Carrier, string> = {
  poste_italiane: 'Poste Italiane',
  brt: 'BRT',
  gls: 'GLS',
  sda: 'SDA',
  dhl: 'DHL',
  ups: 'UPS',
  fedex: 'FedEx',
  tnt: 'TNT',
  inpost: 'InPost',
  nexive: 'Nexive',
  mondial_relay: 'Mondial Relay',
  dpd: 'DPD',
  royal_mail: 'Royal Mail',
  la_poste: 'La Poste / Colissimo',
  correos: 'Correos',
  deutsche_post: 'Deutsche Post',
  postnl: 'PostNL',
  other: '',
};

/** Public tracking pages, `{n}` the tracking number (https only; none for 'other'). */
const TRACKING_URLS: Partial<Record<Carrier, string>> = {
  poste_italiane: 'https://www.poste.it/cerca/index.html#/risultati-spedizioni/{n}',
  brt: 'https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&Nspediz={n}',
  gls: 'https://gls-group.com/IT/it/servizi-online/ricerca-spedizioni?match={n}',
  sda: 'https://www.sda.it/wps/portal/Servizi_online/dettaglio-spedizione?locale=it&tracing.letteraVettura={n}',
  dhl: 'https://www.dhl.com/it-it/home/tracking.html?tracking-id={n}',
  ups: 'https://www.ups.com/track?tracknum={n}',
  fedex: 'https://www.fedex.com/fedextrack/?trknbr={n}',
  tnt: 'https://www.tnt.com/express/it_it/site/shipping-tools/tracking.html?searchType=con&cons={n}',
  inpost: 'https://inpost.it/trova-il-tuo-pacco?number={n}',
  mondial_relay: 'https://www.mondialrelay.it/ricerca-spedizione/?numeroExpedition={n}',
  dpd: 'https://tracking.dpd.de/status/it_IT/parcel/{n}',
  royal_mail: 'https://www.royalmail.com/track-your-item#/tracking-results/{n}',
  la_poste: 'https://www.laposte.fr/outils/suivre-vos-envois?code={n}',
  correos: 'https://www.correos.es/es/en/tools/tracker/items/details?tracking-number={n}',
  deutsche_post: 'https://www.deutschepost.de/de/s/sendungsverfolgung.html?piececode={n}',
  postnl: 'https://jouw.postnl.nl/track-and-trace/{n}',
};

/** The carrier's tracking page for `tracking`, or null when it has none we know. */
export function trackingUrl(carrier: Carrier, tracking: string): string | null {
  const template = TRACKING_URLS[carrier];
  return template ? template.replace('{n}', encodeURIComponent(tracking)) : null;
}

/** Countries a parcel may go to (ISO 3166-1 alpha-2): the EU and its European neighbours. */
export const COUNTRIES = [
  'IT',
  'SM',
  'VA',
  'AT',
  'BE',
  'BG',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'LI',
  'LT',
  'LU',
  'LV',
  'MC',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;
export type Country = (typeof COUNTRIES)[number];

export const PROBLEM_REASONS = ['not_arrived', 'not_as_described', 'damaged'] as const;
export type ProblemReason = (typeof PROBLEM_REASONS)[number];
export const CASE_OUTCOMES = ['completed', 'cancelled'] as const;
export type CaseOutcome = (typeof CASE_OUTCOMES)[number];

const optionalText = (max: number) =>
  z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(max, { error: 'validation.tooLong' })
    .optional()
    .default('');

/** A postal address, as saved in settings and as copied into a deal. */
export const addressInputSchema = z.object({
  name: requiredText(100),
  street: requiredText(200),
  postalCode: requiredText(12).pipe(
    z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, { error: 'deals.post.errors.postalCode' }),
  ),
  city: requiredText(100),
  region: optionalText(100),
  country: z.enum(COUNTRIES, { error: 'deals.post.errors.country' }),
  phone: z
    .string({ error: 'deals.post.errors.phone' })
    .trim()
    .max(20, { error: 'deals.post.errors.phone' })
    .regex(/^(\+?[0-9][0-9 ]{5,19})?$/, { error: 'deals.post.errors.phone' })
    .optional()
    .default(''),
});
export type AddressInput = z.input<typeof addressInputSchema>;

export const postalAddressSchema = z.object({
  name: z.string(),
  street: z.string(),
  postalCode: z.string(),
  city: z.string(),
  region: z.string(),
  country: z.string(),
  phone: z.string(),
});
export type PostalAddress = z.infer<typeof postalAddressSchema>;

export const savedAddressSchema = postalAddressSchema.extend({ id: z.string() });
export type SavedAddress = z.infer<typeof savedAddressSchema>;
export const savedAddressesSchema = z.object({ items: z.array(savedAddressSchema) });
export const savedAddressAnswerSchema = z.object({ address: savedAddressSchema });

/** POST /api/deals/:id/address: a saved address of mine (copied), or one typed for this deal. */
export const giveAddressSchema = z.union([
  z.object({ addressId: z.string().max(64) }),
  z.object({ address: addressInputSchema }),
]);

/** POST /api/deals/:id/ship. */
export const shipInputSchema = z.object({
  carrier: z.enum(CARRIERS, { error: 'deals.post.errors.carrier' }),
  tracking: z
    .string({ error: 'deals.post.errors.tracking' })
    .trim()
    .min(1, { error: 'deals.post.errors.tracking' })
    .max(TRACKING_MAX, { error: 'deals.post.errors.tracking' })
    .regex(/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/, { error: 'deals.post.errors.tracking' }),
});

/** POST /api/deals/:id/problem. */
export const problemInputSchema = z.object({
  reason: z.enum(PROBLEM_REASONS, { error: 'deals.post.errors.reason' }),
  message: requiredText(CASE_MESSAGE_MAX),
});

/** POST /api/deals/:id/case/messages. */
export const caseMessageInputSchema = z.object({ body: requiredText(CASE_MESSAGE_MAX) });
/** POST /api/deals/:id/case/outcome (admins). */
export const caseOutcomeInputSchema = z.object({
  outcome: z.enum(CASE_OUTCOMES, { error: 'validation.invalid' }),
  /**
   * A deal paid in the app, closed as completed in the buyer's favour: the part of the seller's
   * share (whole cents, more than 0) refunded to the buyer, the rest released to the seller.
   * Cancelled refunds everything paid: no amount is taken with it.
   */
  refundCents: z
    .number({ error: 'payments.errors.refundNumber' })
    .int({ error: 'payments.errors.refundNumber' })
    .positive({ error: 'payments.errors.refundPositive' })
    .max(100_000_000, { error: 'payments.errors.refundNumber' })
    .optional(),
});

export const caseMessageSchema = z.object({
  id: z.string(),
  /** Null for a deleted account. */
  author: z.object({ id: z.string(), displayName: z.string() }).nullable(),
  /** Whether the author wrote as an admin (not a side of the deal). */
  admin: z.boolean(),
  body: z.string(),
  createdAt: z.string(),
});

export const dealCaseSchema = z.object({
  reason: z.enum(PROBLEM_REASONS),
  openedAt: z.string(),
  outcome: z.enum(CASE_OUTCOMES).nullable(),
  resolvedAt: z.string().nullable(),
  messages: z.array(caseMessageSchema),
});
export type DealCase = z.infer<typeof dealCaseSchema>;

export const POST_STATES = [
  'awaiting_address',
  'address_given',
  'shipped',
  'received',
  'problem',
  'ended',
] as const;
export type PostState = (typeof POST_STATES)[number];

export const dealPostSchema = z.object({
  state: z.enum(POST_STATES),
  /** The buyer's address: to the buyer always, to the seller only while the deal is open. */
  address: postalAddressSchema.nullable(),
  carrier: z.enum(CARRIERS).nullable(),
  /** The carrier's name as shown ('' for other). */
  carrierName: z.string().nullable(),
  tracking: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  shippedAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
  /** Until when the buyer may report a problem (and when it completes by itself). */
  windowEndsAt: z.string().nullable(),
  case: dealCaseSchema.nullable(),
});
export type DealPost = z.infer<typeof dealPostSchema>;

/** A case in the admins' list. */
export const caseSummarySchema = z.object({
  dealId: z.string(),
  roomId: z.string(),
  reason: z.enum(PROBLEM_REASONS),
  openedAt: z.string(),
  outcome: z.enum(CASE_OUTCOMES).nullable(),
  buyer: z.object({ id: z.string(), displayName: z.string() }),
  seller: z.object({ id: z.string(), displayName: z.string() }),
  titles: z.array(z.string()),
});
export type CaseSummary = z.infer<typeof caseSummarySchema>;
export const casesPageSchema = z.object({
  items: z.array(caseSummarySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export const casesQuerySchema = z.object({
  page: pageNumber('validation.invalid'),
  open: z.enum(['true', 'false'], { error: 'validation.invalid' }).optional(),
});
