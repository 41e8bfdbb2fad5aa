import type { z } from 'zod';
import {
  counterOfferSchema,
  makeOfferSchema,
  makeTradeOfferSchema,
  messageAnswerSchema,
  type ChatMessage,
} from '@shared/schemas/chats';
import type { Module } from '../../../platform/module';
import { idParam, memberRoutes } from '../../../platform/route-presets';
import { currentUser } from '../../../platform/auth';
import { errorSchema, errorResponses } from '../../../platform/errors';
import { queryOf } from '../../../db/tx';
import { moduleChatContext } from '../../chats';
import { offerActions, type OfferAction } from './answer';
import { counterOfferActions } from './counter';
import { defineOfferNotifications } from './notifications';
import { tradeOfferActions } from './trade';

const roomParams = idParam('roomId');
const offerParams = idParam('offerId');

/** Errors every signed-in offer route can answer. */
const common = { 401: errorSchema, 403: errorSchema };

/**
 * Offers in a conversation (deal machinery): a sale or a trade offer on the room's listing, a
 * seller's counter-offer, and the answers; accepting one opens its deal (../context.ts openDeal).
 * Their paths stay the chats' (/api/chats/...), where members make them.
 */
export const offerRoutes: Module = async (app, deps) => {
  const chat = moduleChatContext(app, deps);
  defineOfferNotifications(deps.notifications, queryOf(deps.database));
  const offers = {
    ...offerActions(chat),
    ...tradeOfferActions(chat),
    ...counterOfferActions(chat),
  };
  const { write } = memberRoutes(app, 'chats', 120);

  /** The answers of making an offer, sale or trade. */
  const offerMade = {
    201: messageAnswerSchema,
    400: errorSchema,
    ...common,
    404: errorSchema,
    409: errorSchema,
  };
  /** A route making an offer in a room, sale or trade: 201 with the offer's message. */
  const makeRoute = <B extends z.ZodType>(
    path: string,
    doc: { summary: string; description?: string },
    body: B,
    make: (userId: string, roomId: string, input: z.infer<B>) => Promise<ChatMessage>,
  ) =>
    app.post(
      `/api/chats/rooms/:roomId/${path}`,
      write({ ...doc, params: roomParams, body, response: offerMade }),
      async (request, reply) => {
        const { roomId } = request.params;
        const message = await make(currentUser(request).id, roomId, request.body as z.infer<B>);
        return reply.status(201).send({ message });
      },
    );
  makeRoute(
    'offers',
    {
      summary: "Make an offer on the room's listing for sale (buyer only, one open at a time)",
      description:
        '404: no such listing, or one the buyer may not reach (hidden, its seller suspended, ' +
        'a block), as its page answers. 409 `seller_away`: the seller is on holiday, the ' +
        'message names the last day away (decision 0087); 409 also: not available, an open ' +
        'offer already. Any available listing of the other member of the room may be offered ' +
        "on, not only the room's current one (400 when its seller is not in the room).",
    },
    makeOfferSchema,
    offers.makeOffer,
  );
  makeRoute(
    'trade-offers',
    {
      summary:
        "Propose a trade for the room's listing (trade or both): one to three of my own " +
        'available tradeable listings in exchange, no amount (decision 0080); `delivery` hand ' +
        '(a meeting, the default) or post (each member sends their own books, decision 0089). ' +
        '400: not my ' +
        'listing, not tradeable, my own listing asked for; 404: no such listing, or one out of ' +
        'reach (hidden, its owner suspended, a block); 409: a book not available, an open ' +
        'offer already, or its owner on holiday (`seller_away`, decision 0087)',
    },
    makeTradeOfferSchema,
    offers.makeTradeOffer,
  );

  const offerRoute = (action: OfferAction, summary: string) =>
    app.post(
      `/api/chats/offers/:offerId/${action}`,
      write({
        summary,
        params: offerParams,
        response: { 200: messageAnswerSchema, ...common, ...errorResponses(409) },
      }),
      async (request) => {
        const message = await offers.answerOffer(
          currentUser(request).id,
          request.params.offerId,
          action,
        );
        return { message };
      },
    );
  offerRoute(
    'accept',
    'Accept an offer (seller): reserves the listing, declines other open offers; 409 when a book is in an open deal',
  );
  offerRoute('decline', 'Decline an offer (seller)');
  offerRoute('withdraw', 'Withdraw my open offer (buyer)');

  // The seller answers a buyer's pending sale offer with another amount (./counter.ts). The buyer
  // then accepts, declines (the offer routes, as for any offer) or lets it be; the seller may
  // withdraw it.
  app.post(
    '/api/chats/offers/:offerId/counter',
    write({
      summary:
        "Counter a buyer's pending sale offer with another amount (seller only; issue 33). " +
        'The buyer answers it with accept or decline; the seller may withdraw it. 400: a ' +
        'trade, a counter-offer, or the same amount; 403: not the seller or not in the room; ' +
        '409: already answered, or a book no longer available',
      params: idParam('offerId'),
      body: counterOfferSchema,
      response: { 201: messageAnswerSchema, ...errorResponses(400, 401, 403, 409) },
    }),
    async (request, reply) => {
      const message = await offers.counterOffer(
        currentUser(request).id,
        request.params.offerId,
        request.body.amount,
      );
      return reply.status(201).send({ message });
    },
  );
};
