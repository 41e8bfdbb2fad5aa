import { describe, expect, it } from 'vitest';
import { intlLocale } from './intlLocale';

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
  });

  it('writes English dates month first and Italian dates day first, whatever the region', () => {
    expect(['en', 'en-GB', 'en-IE', 'EN-us'].map(date)).toEqual(Array(4).fill('5/1/2026'));
    expect(['it', 'it-CH'].map(date)).toEqual(['01/05/2026', '01/05/2026']);
  });

  it('answers Italian for a language the app does not speak', () => {
    expect([undefined, '', 'fr-FR', 'constructor'].map((l) => intlLocale(l))).toEqual(
      Array(4).fill('it-IT'),
    );
  });
});
