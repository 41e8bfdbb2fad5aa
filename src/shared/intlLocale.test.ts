import { describe, expect, it } from 'vitest';
import { intlLocale, setBrowserLanguages } from './intlLocale';
import { formatMoney } from './money';

const money = (language: string | undefined, currency = 'EUR') =>
  new Intl.NumberFormat(intlLocale(language), { style: 'currency', currency }).format(7.5);
const date = (language: string) =>
  new Intl.DateTimeFormat(intlLocale(language), { timeZone: 'UTC' }).format(
    new Date('2026-05-01T12:00:00Z'),
  );

describe('intlLocale', () => {
  it('writes money as a reader of the interface language expects', () => {
    expect(money('it')).toBe('7,50\u00a0€');
    expect(money('en')).toBe('€7.50');
    expect(money('en', 'USD')).toBe('$7.50');
    // Money keeps one locale per language: an en-GB reader too sees the pages' "$7.50".
    expect(formatMoney(7.5, 'USD', 'en-GB')).toBe('$7.50');
  });

  it("writes English dates in the reader's region and Italian dates day first", () => {
    expect(['en', 'en-GB', 'en-IE', 'EN-us'].map(date)).toEqual([
      '5/1/2026',
      '01/05/2026',
      '1/5/2026',
      '5/1/2026',
    ]);
    setBrowserLanguages(['en-GB', 'en']);
    expect(['en', 'en-US'].map(date)).toEqual(['01/05/2026', '5/1/2026']);
    setBrowserLanguages([]);
    expect(['it', 'it-CH'].map(date)).toEqual(['01/05/2026', '01/05/2026']);
  });

  it('answers Italian for a language the app does not speak', () => {
    expect([undefined, '', 'fr-FR', 'constructor'].map((l) => intlLocale(l))).toEqual(
      Array(4).fill('it-IT'),
    );
  });
});
