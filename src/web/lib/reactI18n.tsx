/**
 * Our React binding of the translator (lib/translator.ts), imported as `@web/lib/reactI18n`: the
 * subset of react-i18next's API the app uses (`useTranslation`, `Trans`), ours, not that library.
 * As react-i18next with `useSuspense`, a component suspends until the first catalogue is there
 * and renders again when the language changes.
 */
import {
  cloneElement,
  createElement,
  Fragment,
  isValidElement,
  useMemo,
  useSyncExternalStore,
  type ReactElement,
  type ReactNode,
} from 'react';
import i18n from './i18n';
import type { LocaleKey, TFunction, TOptions } from './translator';

const subscribe = (onChange: () => void) => {
  i18n.on('languageChanged', onChange);
  return () => {
    i18n.off('languageChanged', onChange);
  };
};
const snapshot = () => (i18n.isInitialized ? i18n.language : '');

export function useTranslation() {
  const language = useSyncExternalStore(subscribe, snapshot, snapshot);
  const t = useMemo(() => i18n.getFixedT(language), [language]);
  // Suspense, as react-i18next's useSuspense: the first render waits for the catalogue.
  if (!i18n.isInitialized) throw i18n.ready;
  const result = [t, i18n, true] as unknown as [TFunction, typeof i18n, boolean] & {
    t: TFunction;
    i18n: typeof i18n;
    ready: boolean;
  };
  result.t = t;
  result.i18n = i18n;
  result.ready = true;
  return result;
}

// Tags kept as HTML elements when no component is given (react-i18next's default list).
const basicHtml = new Set(['br', 'strong', 'i', 'p']);
const tag = /<(\/?)([\w-]+)\s*(\/?)>/g;

function renderMarkup(
  text: string,
  components: Record<string, ReactElement> | readonly ReactElement[] | undefined,
): ReactNode[] {
  const root: { name: string | null; children: ReactNode[]; raw: string }[] = [
    { name: null, children: [], raw: '' },
  ];
  let last = 0;
  let key = 0;
  const componentOf = (name: string) =>
    (components as Record<string, ReactElement> | undefined)?.[name];
  const build = (name: string, children: ReactNode[]): ReactNode => {
    const component = componentOf(name);
    if (component && isValidElement(component))
      return cloneElement(component, { key: key++ }, ...(children.length ? children : []));
    if (basicHtml.has(name)) return createElement(name, { key: key++ }, ...children);
    return null;
  };
  for (const match of text.matchAll(tag)) {
    const [whole, closing, name, selfClosing] = match;
    const top = root[root.length - 1];
    if (match.index > last) top.children.push(text.slice(last, match.index));
    last = match.index + whole.length;
    const known = componentOf(name) !== undefined || basicHtml.has(name);
    if (!known) {
      top.children.push(whole);
      continue;
    }
    if (selfClosing) top.children.push(build(name, []));
    else if (!closing) root.push({ name, children: [], raw: whole });
    else if (top.name === name && root.length > 1) {
      root.pop();
      root[root.length - 1].children.push(build(name, top.children));
    } else top.children.push(whole);
  }
  if (last < text.length) root[root.length - 1].children.push(text.slice(last));
  // Unclosed tags: their text stays as it was written.
  while (root.length > 1) {
    const open = root.pop()!;
    root[root.length - 1].children.push(open.raw, ...open.children);
  }
  return root[0].children;
}

export function Trans({
  i18nKey,
  values,
  components,
  count,
  defaults,
  t,
}: {
  i18nKey: LocaleKey;
  values?: Record<string, unknown>;
  components?: Record<string, ReactElement> | readonly ReactElement[];
  count?: number;
  defaults?: string;
  t?: TFunction;
  children?: ReactNode;
}) {
  const own = useTranslation().t;
  const options: TOptions = { ...values };
  if (count !== undefined) options.count = count;
  if (defaults !== undefined) options.defaultValue = defaults;
  const text = (t ?? own)(i18nKey, options);
  return createElement(Fragment, null, ...renderMarkup(text, components));
}
