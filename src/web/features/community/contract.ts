// The server's rules and numbers, from the shared contract (src/shared/schemas/community.ts).
export {
  POST_MAX as POST_CONTENT_MAX,
  POST_WARN as POST_CONTENT_WARN,
  COMMENT_MAX,
  SEARCH_MIN_CHARS as POST_SEARCH_MIN_QUERY,
  SEARCH_MAX_CHARS as POST_SEARCH_MAX_QUERY,
  BOOK_SEARCH_MIN_CHARS as BOOK_SEARCH_MIN_QUERY,
  BOOK_SEARCH_DEBOUNCE_MS,
  BOOK_SEARCH_RESULTS as BOOK_SEARCH_LIMIT,
  POST_TITLE_MAX,
  TAGS_MAX as POST_TAGS_MAX,
  TAG_MAX as POST_TAG_MAX,
  POST_TYPES,
  postTopic,
} from '@shared/schemas/community';
