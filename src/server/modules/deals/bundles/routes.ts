import {
  bundleOfferSchema,
  bundleQuoteSchema,
  bundleQuoteSchemaAnswer,
  bundleRuleAnswerSchema,
  bundleRuleSchema,
} from '@shared/schemas/bundles';
import { contactAnswerSchema } from '@shared/schemas/chats';
import type { Module } from '../../../platform/module';
import { memberRoutes } from '../../../platform/route-presets';
import { currentUser } from '../../../platform/auth';
import { errorSchema } from '../../../platform/errors';
import { moduleChatContext } from '../../chats';
import { bundleActions, readRule, saveRule } from './service';

/**
 * Bundles (issue 22 item 3, decision 0076): the seller's shipping rule, a quote of a bundle being
 * built, and the one offer for all its books. Accepting, completing and cancelling are the deals
 * core's (an offer covers its offer_listings).
 */
export const bundleRoutes: Module = async (app, deps) => {
  const chat = moduleChatContext(app, deps);
  const bundles = bundleActions(chat);
  const { tags, security, signedIn, writes } = memberRoutes(app, 'bundles', 120);

  app.get(
    '/api/bundles/rule',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'My bundle shipping rule as a seller',
        description:
          '`shippingAmount` null: a bundle ships for the highest single shipping cost of its books; an amount: that price for the whole parcel.',
        response: { 200: bundleRuleAnswerSchema, 401: errorSchema },
      },
    },
    async (request) => ({ rule: await readRule(chat.query, currentUser(request).id) }),
  );

  app.put(
    '/api/bundles/rule',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Set my bundle shipping rule (null: the highest single shipping cost)',
        body: bundleRuleSchema,
        response: { 200: bundleRuleAnswerSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => ({
      rule: await saveRule(chat.query, currentUser(request).id, request.body),
    }),
  );

  app.post(
    '/api/bundles/quote',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'What a bundle being built costs: its books, the seller’s rule, one shipping cost',
        description:
          'Changes nothing. 1 to 20 books of one seller, for sale, not mine: books of several sellers, duplicates or my own are 400; a missing or hidden book, or one of a suspended or blocked seller, is 404 (as its page answers). Books no longer available are listed with `available: false`. `handOnly` names the books that make post impossible (none under a bundle price).',
        body: bundleQuoteSchema,
        response: {
          200: bundleQuoteSchemaAnswer,
          400: errorSchema,
          401: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request) => bundles.quote(currentUser(request).id, request.body.listingIds),
  );

  app.post(
    '/api/chats/bundles',
    {
      ...writes,
      schema: {
        tags: ['chats', ...tags],
        security,
        summary:
          'Make one offer for 2 to 20 books of one seller: the direct conversation, a card of each book, then the offer',
        description:
          'The offer covers every book (accepting reserves them all or none; the deal completes or is cancelled as one). Delivery `post` costs one shipping by the seller’s rule: their bundle price when they set one (it holds even for a book they hand over only), else the highest single cost, which needs every book to ship (400 on `delivery` naming the books that do not); by default post when it is possible, else hand. Refused: books of several sellers, duplicates, my own, for trade only (400); missing, hidden, or a suspended or blocked member’s (404, as their pages answer); not available, an open offer of mine on one of them or an open bundle offer to this seller, or the seller on holiday (409; `seller_away` names the last day away, decision 0087).',
        body: bundleOfferSchema,
        response: {
          201: contactAnswerSchema,
          400: errorSchema,
          401: errorSchema,
          404: errorSchema,
          409: errorSchema,
          500: errorSchema,
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await bundles.offer(currentUser(request).id, request.body)),
  );
};
