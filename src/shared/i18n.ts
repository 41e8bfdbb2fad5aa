export type Resources = Record<string, unknown>;

function lookup(resources: Resources, key: string): string | undefined {
  let node: unknown = resources;
  for (const part of key.split('.')) {
    if (node && typeof node === 'object' && part in (node as Record<string, unknown>)) {
      node = (node as Record<string, unknown>)[part];
    } else {
      return undefined;
    }
  }
  return typeof node === 'string' ? node : undefined;
}

/** i18next-compatible lookup ('{{name}}' interpolation) for code that runs without i18next. */
export function translate(
  resources: Resources,
  key: string,
  vars: Record<string, string | number> = {},
  fallback?: Resources,
): string | undefined {
  const text = lookup(resources, key) ?? (fallback ? lookup(fallback, key) : undefined);
  if (text === undefined) return undefined;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** All dotted keys of a nested catalogue (used by the locale-parity test). */
export function flattenKeys(resources: Resources, prefix = ''): string[] {
  return Object.entries(resources).flatMap(([k, v]) =>
    v && typeof v === 'object' ? flattenKeys(v as Resources, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
