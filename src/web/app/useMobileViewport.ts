import { useEffect } from 'react';
import { MOBILE_MAX_WIDTH, VIEWPORT_RECALC_DELAY_MS } from '@shared/constants';

const BASE = 'width=device-width, initial-scale=1';

function setMaxScale(scale: number) {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="viewport"]');
  if (meta) meta.content = `${BASE}, maximum-scale=${scale}`;
}

function isMobile() {
  return window.matchMedia(`(max-width: ${MOBILE_MAX_WIDTH}px)`).matches;
}

function isTextInput(el: EventTarget | null): boolean {
  return (
    el instanceof HTMLElement && el.matches('input, textarea, select, [contenteditable="true"]')
  );
}

/**
 * On mobile, while an input has focus the viewport's maximum scale is 1 (no zoom jump on iOS) and 5
 * again on blur; after an orientation change the viewport is recalculated after 500 ms.
 */
export function useMobileViewport() {
  useEffect(() => {
    const recalc = () => {
      document.documentElement.style.setProperty('--app-vh', `${window.innerHeight * 0.01}px`);
      if (!isTextInput(document.activeElement) || !isMobile()) setMaxScale(5);
    };
    const onFocusIn = (e: FocusEvent) => {
      if (isMobile() && isTextInput(e.target)) setMaxScale(1);
    };
    const onFocusOut = (e: FocusEvent) => {
      if (isTextInput(e.target)) setMaxScale(5);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onOrientation = () => {
      clearTimeout(timer);
      timer = setTimeout(recalc, VIEWPORT_RECALC_DELAY_MS);
    };
    recalc();
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    window.addEventListener('orientationchange', onOrientation);
    screen.orientation?.addEventListener?.('change', onOrientation);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
      window.removeEventListener('orientationchange', onOrientation);
      screen.orientation?.removeEventListener?.('change', onOrientation);
    };
  }, []);
}
