import { useEffect, useState } from 'react';
import { formatMoney } from '@shared/money';

/** Runs `work` when the browser is idle (at the latest after `timeout` ms); returns a canceller. */
export function whenIdle(work: () => void, timeout = 1000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(work, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(work, 50);
  return () => window.clearTimeout(id);
}

/**
 * The first money formatter of a page costs some 15 ms (the browser loads the language's number
 * data), 60 ms on a slow phone: made while the page waits for its first answer, not in the same
 * task as the cards or the book that show prices (issue 25: the library's blocking time).
 */
export function useMoneyFormatWarmUp(language: string) {
  // Soon (an idle moment, else 100 ms): the first answer may come back quickly.
  useEffect(() => whenIdle(() => formatMoney(1, 'EUR', language), 100), [language]);
}

/** False until the browser has been idle once after the first render (at the latest `timeout` ms). */
export function useIdle(timeout = 1500): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => (idle ? undefined : whenIdle(() => setIdle(true), timeout)), [idle, timeout]);
  return idle;
}
