import type { Query } from '../../db/tx';
import { dealAnswerSchema } from '@shared/schemas/deals';
import { errorSchema } from '../../platform/errors';
import type { DealPost } from '@shared/schemas/dealPost';
import type { DealMeeting } from '@shared/schemas/dealMeeting';

/** The parts by method: built once by the deals module, on its DealContext (`ctx.parts`). */
export interface DealParts {
  post: DealPart<DealPost>;
  hand: DealPart<DealMeeting>;
}

/** What the core knows of a deal when it asks a part (post, meetings) about it. */
export interface DealFacts {
  id: string;
  offerId: string;
  roomId: string;
  buyerId: string;
  sellerId: string;
  /** A sale, or a trade of books for books (decision 0080). */
  kind: 'sale' | 'trade';
  method: 'post' | 'hand';
  status: 'open' | 'completed' | 'cancelled';
  createdAt: Date;
  endedAt: Date | null;
}

export type DealViewer = { id: string; role: 'buyer' | 'seller' | 'admin' };

/**
 * A way a deal reaches its end (decision 0072): sale by post (./post) for deals of method 'post',
 * meetings (./meetings) for 'hand'. The core lists, reads, cancels and completes deals; each part
 * adds its own state to the deal's answer and its own rules; its routes and jobs are registered
 * by the deals module (./routes.ts), on the DealContext that carries the parts.
 */
export interface DealPart<State = unknown> {
  method: 'post' | 'hand';
  /** The part's state as `viewer` may see it at `now`, the app's clock (`deal.post` / `deal.meeting`). */
  state(q: Query, deal: DealFacts, viewer: DealViewer, now: Date): Promise<State>;
  /** Null when `by` may cancel the open deal now, else the error's locale key (409). */
  cancelRefusal(q: Query, deal: DealFacts, by: DealViewer): Promise<string | null>;
  /** Whether an admin may read this deal (a problem's case); false by default. */
  adminMayRead?(q: Query, deal: DealFacts): Promise<boolean>;
}

/** The answers of a deal's step route: the deal as it is now, or why the step was refused. */
export const stepResponses = {
  200: dealAnswerSchema,
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
};
