// The consent tool (vanilla-cookieconsent, bundled from npm). Loaded with a dynamic import after
// the first render so that it stays out of the home page's initial JavaScript.
import * as CookieConsent from 'vanilla-cookieconsent';
import 'vanilla-cookieconsent/dist/cookieconsent.css';
import './consent-theme.css';
import i18n, { currentLanguage } from '../../lib/i18n';
import { LANGUAGES } from '@shared/constants';
import {
  OPTIONAL_CATEGORIES,
  preferencesFromCategories,
  type CookiePreferences,
  type OptionalCategory,
} from '../../lib/consent';
import { recordPreferences } from '../../lib/consentStore';
import type { LocaleKey } from '../../lib/translator';

/** Persistent cookies live at most a year (cookie policy, retention table). */
const CONSENT_COOKIE_DAYS = 365;
// @shared/constants' CONSENT_COOKIE_NAME (the server reads it), spelled out: importing it here split
// the constants off the shell into a chunk of their own, one more request before the first paint.
export const CONSENT_COOKIE_NAME = 'scaffale_consent';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The tool's texts for one language, from our catalogues (it renders them as HTML: escape). */
async function translation(language: string): Promise<CookieConsent.Translation> {
  await i18n.loadLanguages(language);
  const t = i18n.getFixedT(language);
  const text = (key: LocaleKey) => escapeHtml(t(key));
  const policyLink = `<a href="/cookie-policy">${text('cookies.banner.policyLink')}</a>`;
  const category = (name: 'essential' | 'functional' | 'analytics' | 'marketing') => ({
    title: text(`cookies.categories.${name}.title`),
    description: text(`cookies.categories.${name}.description`),
    linkedCategory: name,
  });
  return {
    consentModal: {
      label: text('cookies.banner.label'),
      title: text('cookies.banner.title'),
      description: `${text('cookies.banner.description')} ${policyLink}`,
      acceptAllBtn: text('cookies.banner.acceptAll'),
      acceptNecessaryBtn: text('cookies.banner.essentialOnly'),
      showPreferencesBtn: text('cookies.banner.customize'),
    },
    preferencesModal: {
      title: text('cookies.modal.title'),
      acceptAllBtn: text('cookies.banner.acceptAll'),
      acceptNecessaryBtn: text('cookies.banner.essentialOnly'),
      savePreferencesBtn: text('cookies.modal.save'),
      closeIconLabel: text('cookies.modal.close'),
      sections: [
        { description: text('cookies.modal.intro') },
        category('essential'),
        category('functional'),
        category('analytics'),
        category('marketing'),
        {
          title: text('cookies.modal.moreInfoTitle'),
          description: `${text('cookies.modal.moreInfo')} ${policyLink}`,
        },
      ],
    },
  };
}

function syncFromTool() {
  if (!CookieConsent.validConsent()) {
    recordPreferences(null);
    return;
  }
  recordPreferences(
    preferencesFromCategories(CookieConsent.getUserPreferences().acceptedCategories),
  );
}

let started: Promise<void> | null = null;

/** Starts the tool once per page: shows the banner when no valid choice is stored. */
export function start(): Promise<void> {
  started ??= (async () => {
    await CookieConsent.run({
      // Automated browsers (our e2e suite, screen readers driven by scripts) must see it too.
      hideFromBots: false,
      mode: 'opt-in',
      revision: 0,
      cookie: {
        name: CONSENT_COOKIE_NAME,
        expiresAfterDays: CONSENT_COOKIE_DAYS,
        sameSite: 'Lax',
        secure: location.protocol === 'https:',
      },
      guiOptions: {
        consentModal: { layout: 'box', position: 'bottom right', equalWeightButtons: true },
        preferencesModal: { layout: 'box', equalWeightButtons: true },
      },
      categories: {
        essential: { enabled: true, readOnly: true },
        functional: { enabled: true },
        analytics: { enabled: false },
        marketing: { enabled: false },
      },
      language: {
        default: currentLanguage(),
        translations: Object.fromEntries(LANGUAGES.map((l) => [l, () => translation(l)])),
      },
      onConsent: syncFromTool,
      onChange: syncFromTool,
    });
    syncFromTool();
    // The banner and the preferences follow the interface language.
    i18n.on('languageChanged', () => {
      void CookieConsent.setLanguage(currentLanguage());
    });
  })();
  return started;
}

/** A button of the server-written banner pressed before the tool had started (prerendered.ts). */
export async function answerBanner(role: 'all' | 'necessary' | 'show') {
  await start();
  if (role === 'show') {
    CookieConsent.showPreferences();
    return;
  }
  CookieConsent.acceptCategory(role === 'all' ? 'all' : []);
  CookieConsent.hide();
  syncFromTool();
}

export async function showPreferences() {
  await start();
  CookieConsent.showPreferences();
}

/** Saves a choice made outside the tool (the cookie policy page) and closes the banner. */
export async function savePreferences(choice: Pick<CookiePreferences, OptionalCategory>) {
  await start();
  CookieConsent.acceptCategory(OPTIONAL_CATEGORIES.filter((c) => choice[c]));
  CookieConsent.hide();
  syncFromTool();
}
