import { useCallback, useSyncExternalStore } from 'react';
import { BUNDLE_MAX_LISTINGS } from '@shared/schemas/bundles';

/**
 * The bundle a buyer is building, per seller, in this tab's sessionStorage: nothing is sent until
 * the offer is (the server checks everything then). Books are kept in the order they were added.
 */
const KEY = 'scaffale.bundles';
const CHANGED = 'scaffale:bundle-changed';

export interface BundleItem {
  id: string;
  title: string;
}
type Bundles = Record<string, BundleItem[]>;

function read(): Bundles {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Bundles) : {};
  } catch {
    return {};
  }
}

function write(next: Bundles) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or refused: the bundle lives as long as the page.
  }
  window.dispatchEvent(new Event(CHANGED));
}

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

const snapshot = () => sessionStorage.getItem(KEY) ?? '{}';

/** The bundle being built with `sellerId`, and what changes it. */
export function useBundle(sellerId: string) {
  const raw = useSyncExternalStore(subscribe, snapshot, () => '{}');
  const items: BundleItem[] = (() => {
    try {
      const list = (JSON.parse(raw) as Bundles)[sellerId];
      return Array.isArray(list) ? list : [];
    } catch {
      return [];
    }
  })();
  const update = useCallback(
    (change: (list: BundleItem[]) => BundleItem[]) => {
      const all = read();
      const next = change(all[sellerId] ?? []);
      if (next.length === 0) delete all[sellerId];
      else all[sellerId] = next;
      write(all);
    },
    [sellerId],
  );
  return {
    items,
    ids: items.map((i) => i.id),
    has: (id: string) => items.some((i) => i.id === id),
    full: items.length >= BUNDLE_MAX_LISTINGS,
    add: (item: BundleItem) =>
      update((list) =>
        list.some((i) => i.id === item.id) || list.length >= BUNDLE_MAX_LISTINGS
          ? list
          : [...list, item],
      ),
    remove: (id: string) => update((list) => list.filter((i) => i.id !== id)),
    clear: () => update(() => []),
  };
}
