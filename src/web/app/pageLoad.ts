/**
 * A page whose code (or texts) could not be fetched: offline, or a chunk gone after a new deploy.
 * `page()` in router.tsx wraps the failure in this, so the page's error element (RouteError) can
 * tell it from a page that failed to render, and answer inside the shell instead of replacing it.
 */
export class PageLoadError extends Error {
  override readonly name = 'PageLoadError';
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

const RELOAD_KEY = 'scaffale:page-reload';
/** A reload for the same page within this time did not help: ask the person instead. */
const RELOAD_WINDOW_MS = 30_000;

/**
 * Online and a page's chunk fails: most likely a new deploy removed the hashed file this tab
 * knows. One full load of the page fetches the new build; a second failure soon after for the
 * same page is not reloaded again (no loop), the person gets the retry button.
 */
export function reloadForNewBuild(path: string): boolean {
  try {
    const last = JSON.parse(sessionStorage.getItem(RELOAD_KEY) ?? 'null') as {
      path: string;
      at: number;
    } | null;
    if (last && last.path === path && Date.now() - last.at < RELOAD_WINDOW_MS) return false;
    sessionStorage.setItem(RELOAD_KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    return false; // no storage: no way to avoid a loop, so no automatic reload
  }
  window.location.reload();
  return true;
}
