/**
 * Stripe's request bodies and query strings: form-encoded, nested keys in brackets
 * (`line_items[0][price_data][currency]=eur`, `metadata[deal_id]=…`). Objects whose keys are all
 * indices become arrays. Values stay strings, as Stripe receives them.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export function parseForm(text: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.match(/^[^[\]]+|\[[^[\]]*\]/g);
    if (!parts) continue;
    const path = parts.map((p) => p.replace(/^\[|\]$/g, ''));
    let node = root as Record<string, FormValue>;
    path.forEach((key, i) => {
      const last = i === path.length - 1;
      // `a[]=x`: the next free index.
      const k = key === '' ? String(Object.keys(node).length) : key;
      if (last) node[k] = value;
      else {
        if (typeof node[k] !== 'object') node[k] = {};
        node = node[k] as Record<string, FormValue>;
      }
    });
  }
  return arrays(root) as Record<string, FormValue>;
}

function arrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((k) => [k, arrays(value[k])]));
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => converted[k]);
  return converted;
}
