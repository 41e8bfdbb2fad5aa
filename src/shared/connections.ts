import { z } from 'zod';
import { isUuid, memberSummarySchema, pageNumber, pageOf } from './schemas/common';

/** Friends, requests and search results per page. */
export const FRIENDS_PAGE_SIZE = 20;
export const REQUESTS_PAGE_SIZE = 20;
export const FRIEND_SEARCH_PAGE_SIZE = 10;
/** Find friends: at least this many characters, typed with this pause before searching. */
export const FRIEND_SEARCH_MIN_QUERY = 2;
export const FRIEND_SEARCH_DEBOUNCE_MS = 300;
const FRIEND_SEARCH_MAX_QUERY = 100;

/** How the signed-in member stands with another: no link, a request either way, or friends. */
export const CONNECTION_STATES = [
  'none',
  'pending-outgoing',
  'pending-incoming',
  'accepted',
] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

const page = pageNumber('connections.validation.pageInvalid');

export const connectionMemberSchema = memberSummarySchema.extend({
  /** When the member joined Scaffale. */
  memberSince: z.string(),
});
export type ConnectionMember = z.infer<typeof connectionMemberSchema>;

export const friendSchema = z.object({
  connectionId: z.string(),
  member: connectionMemberSchema,
  /** When the request was accepted. */
  friendsSince: z.string(),
  /** Completed transactions between the two, either side buying. */
  booksExchanged: z.number().int(),
  /** Reactions to each other's posts (0 until the community feed exists). */
  reactions: z.number().int(),
  /** booksExchanged + reactions; the list's order, highest first. */
  interactions: z.number().int(),
});
export type Friend = z.infer<typeof friendSchema>;

export const friendPageSchema = pageOf(friendSchema);
export type FriendPage = z.infer<typeof friendPageSchema>;

export const connectionRequestSchema = z.object({
  connectionId: z.string(),
  member: connectionMemberSchema,
  sentAt: z.string(),
});
export type ConnectionRequest = z.infer<typeof connectionRequestSchema>;

const requestListSchema = pageOf(connectionRequestSchema);

export const connectionRequestsSchema = z.object({
  incoming: requestListSchema,
  outgoing: requestListSchema,
});
export type ConnectionRequests = z.infer<typeof connectionRequestsSchema>;

export const connectionRequestsQuerySchema = z.object({
  incomingPage: page,
  outgoingPage: page,
});

export const friendsQuerySchema = z.object({ page });

export const connectionStatusSchema = z.object({
  state: z.enum(CONNECTION_STATES),
  connectionId: z.string().nullable(),
});
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

export const sendConnectionSchema = z.object({
  userId: z
    .string({ error: 'connections.validation.userRequired' })
    .trim()
    .min(1, { error: 'connections.validation.userRequired' })
    .max(64, { error: 'connections.validation.userRequired' }),
});

export const connectionSchema = z.object({
  id: z.string(),
  requesterId: z.string(),
  addresseeId: z.string(),
  status: z.enum(['pending', 'accepted']),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Connection = z.infer<typeof connectionSchema>;

export const friendSearchQuerySchema = z.object({
  q: z
    .string({ error: 'connections.validation.queryTooShort' })
    .trim()
    .min(FRIEND_SEARCH_MIN_QUERY, { error: 'connections.validation.queryTooShort' })
    .max(FRIEND_SEARCH_MAX_QUERY, { error: 'connections.validation.queryTooLong' }),
  page,
});

export const friendSearchResultSchema = z.object({
  member: connectionMemberSchema,
  state: z.enum(CONNECTION_STATES),
  connectionId: z.string().nullable(),
});
export type FriendSearchResult = z.infer<typeof friendSearchResultSchema>;

export const friendSearchPageSchema = pageOf(friendSearchResultSchema);
export type FriendSearchPage = z.infer<typeof friendSearchPageSchema>;

/** What a connection's id is (a uuid); anything else is simply not found. */
export const isConnectionId = isUuid;
