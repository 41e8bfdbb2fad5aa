/// <reference types="vite/client" />

declare module 'virtual:locale-loaders' {
  type Loader = () => Promise<{ default: Record<string, unknown> }>;
  /** loaders[language][group]: 'core' or one of LAZY_LOCALE_GROUPS */
  export const loaders: Record<string, Record<string, Loader>>;
}
declare module 'virtual:mantine-styles';
