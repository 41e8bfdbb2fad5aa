import { readFileSync } from 'node:fs';
import type { Language } from '@shared/constants';

/**
 * The built index.html, read once and cut where the page's own head goes. The build's title and
 * description (and any social tags it may carry) are dropped: every answer writes its own.
 */
export interface HtmlTemplate {
  /** `body`: markup put at the end of <body> (after the app's root). */
  render(head: string, language: Language, body?: string): string;
}

const DROPPED = [
  /<title>[\s\S]*?<\/title>\s*/i,
  /<meta\s[^>]*\bname=["']description["'][^>]*>\s*/gi,
  /<meta\s[^>]*\b(?:name|property)=["'](?:og|twitter):[^"']*["'][^>]*>\s*/gi,
  /<link\s[^>]*\brel=["']canonical["'][^>]*>\s*/gi,
];
const MARK = '<!--scaffale:head-->';

export function parseTemplate(html: string): HtmlTemplate {
  let marked = html.replace(DROPPED[0], MARK);
  if (!marked.includes(MARK)) marked = marked.replace(/<\/head>/i, `${MARK}</head>`);
  for (const pattern of DROPPED.slice(1)) marked = marked.replace(pattern, '');
  const at = marked.indexOf(MARK);
  if (at < 0) throw new Error('index.html has no <head>');
  const before = marked.slice(0, at);
  const after = marked.slice(at + MARK.length);
  const hasLang = /<html[^>]*\slang=["'][^"']*["']/i.test(before);
  return {
    render(head, language, body) {
      const opening = hasLang
        ? before.replace(/(<html[^>]*\slang=["'])[^"']*(["'])/i, `$1${language}$2`)
        : before.replace(/<html/i, `<html lang="${language}"`);
      const closing = body ? after.replace(/<\/body>/i, () => `${body}\n  </body>`) : after;
      return `${opening}${head}\n    ${closing}`;
    },
  };
}

export function loadTemplate(file: string): HtmlTemplate {
  return parseTemplate(readFileSync(file, 'utf8'));
}
