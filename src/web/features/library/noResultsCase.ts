/**
 * The words of an empty result (issue 33, item 12): words alone speak of the words (no filter is
 * on, so none is mentioned), words with filters of both, filters alone of the filters. Clearing
 * the filters is offered only when there is one to clear.
 */
export function noResultsCase(words: string, filters: boolean) {
  const typed = words.trim();
  if (!typed) return { text: 'library.empty.noResultsText', typed, clear: true } as const;
  if (filters) return { text: 'library.empty.noResultsWordsFilters', typed, clear: true } as const;
  return { text: 'library.empty.noResultsWords', typed, clear: false } as const;
}

/** "Did you mean": the suggestions that are not the words themselves, at most `max`. */
export function alternativesTo<T extends { text: string }>(
  words: string,
  suggestions: readonly T[],
  max: number,
): T[] {
  const typed = words.trim().toLocaleLowerCase();
  return suggestions.filter((s) => s.text.trim().toLocaleLowerCase() !== typed).slice(0, max);
}

/**
 * What "did you mean" asks the suggestions for: words match as prefixes and all of them must
 * match, so the words that found nothing seldom start a title themselves; with several words,
 * the longest alone (the one that says most) may (a title or an author the reader meant).
 */
export function suggestionWords(words: string): string {
  const all = words.trim().split(/\s+/).filter(Boolean);
  if (all.length < 2) return all.join('');
  return all.reduce((a, b) => (b.length > a.length ? b : a));
}
