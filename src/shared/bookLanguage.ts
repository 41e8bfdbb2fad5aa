/** A language code as the catalogue gives it: 'it', 'en', 'ita', 'pt-BR'. */
const LANGUAGE_CODE = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*$/i;

const names = new Map<string, string | null>();

function nameOfCode(code: string): string | null {
  const tag = code.replace(/_/g, '-');
  if (names.has(tag)) return names.get(tag)!;
  let name: string | null = null;
  try {
    // The language's own name for itself ('italiano', 'English'), with a capital as the sell
    // form's field has it.
    const own = new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' }).of(tag);
    if (own) name = own.charAt(0).toLocaleUpperCase(tag) + own.slice(1);
  } catch {
    name = null;
  }
  names.set(tag, name);
  return name;
}

/**
 * A book's language as listings store and show it: by name, in that language ("Italiano",
 * "English"), as a member writes it in the sell form. The catalogue (and so the quick listings,
 * which take the language from it) gives codes: 'it' reads "Italiano". A name stays as written;
 * an unknown code too; nothing stays nothing.
 */
export function bookLanguageName(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  if (!LANGUAGE_CODE.test(text)) return text;
  return nameOfCode(text) ?? text;
}
