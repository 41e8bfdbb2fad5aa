import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from '@shared/constants';
import { t } from '../i18n';
import { escapeHtml } from '../mail';

/**
 * The cookie banner, written into the HTML for a visitor who has not answered it yet. On a first
 * visit it is the largest thing on a phone's first screen, and drawn by the consent tool it
 * waited for every script (Lighthouse: largest paint 2.9 to 3.1 s, all of it script time). Here
 * it paints with the page's first paint. The markup is the tool's own (vanilla-cookieconsent's
 * `box bottom right` consent modal), styled by the tool's stylesheet, so when the tool starts it
 * takes the banner's place with an identical one (features/cookies/prerendered.ts swaps them and
 * keeps a click made in between).
 */
export function consentBanner(language: Language): string {
  const text = (key: string) => escapeHtml(t(language, `cookies.banner.${key}`));
  const button = (role: string, key: string, secondary = false) =>
    `<button type="button" class="cm__btn${secondary ? ' cm__btn--secondary' : ''}" data-role="${role}"><span>${text(key)}</span></button>`;
  return (
    `<div id="cc-main" data-nosnippet data-prerendered><div class="cm-wrapper cc--anim">` +
    `<div class="cm cm--box cm--bottom cm--right" role="dialog" aria-modal="true" aria-describedby="cm__desc" aria-label="${text('label')}">` +
    `<div class="cm__body"><div class="cm__texts"><h2 id="cm__title" class="cm__title">${text('title')}</h2>` +
    `<p id="cm__desc" class="cm__desc">${text('description')} <a href="/cookie-policy">${text('policyLink')}</a></p></div>` +
    `<div class="cm__btns"><div class="cm__btn-group">${button('all', 'acceptAll')}${button('necessary', 'essentialOnly')}</div>` +
    `<div class="cm__btn-group">${button('show', 'customize', true)}</div></div></div></div></div></div>`
  );
}

/**
 * The consent tool's stylesheet(s) in this build (from Vite's manifest), linked in the head of a
 * page that carries the banner; none when the build has no manifest (API tests' fixture).
 */
export function consentStylesheets(webDir: string): string[] {
  try {
    const manifest = JSON.parse(
      readFileSync(join(webDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Record<string, { css?: string[] }>;
    return manifest['features/cookies/manager.ts']?.css ?? [];
  } catch {
    return [];
  }
}
