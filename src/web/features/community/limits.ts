/** The post search box waits this long after the last key before searching. */
export const POST_SEARCH_DEBOUNCE_MS = 300;
