import { afterEach, describe, expect, it } from 'vitest';
import { formatCounter, formatDate, formatDecimal, pageTitle } from './format';
import { setBrowserLanguages } from './intlLocale';
import { pickLanguage } from './constants';

describe('formatCounter', () => {
  it('prints small numbers plainly', () => {
    expect(formatCounter(0)).toBe('0');
    expect(formatCounter(999)).toBe('999');
  });
  it('uses K from a thousand and M from a million, one decimal', () => {
    expect(formatCounter(1000)).toBe('1.0K');
    expect(formatCounter(1530)).toBe('1.5K');
    expect(formatCounter(999_999)).toBe('1000.0K');
    expect(formatCounter(1_000_000)).toBe('1.0M');
    expect(formatCounter(2_450_000)).toBe('2.5M');
  });
  it('treats missing counts as 0', () => {
    expect(formatCounter(undefined)).toBe('0');
    expect(formatCounter(null)).toBe('0');
    expect(formatCounter(Number.NaN)).toBe('0');
  });
});

describe('formatDate', () => {
  const d = new Date(2025, 8, 28);
  it('is DD/MM/YYYY in Italian and MM/DD/YYYY in English', () => {
    expect(formatDate(d, 'it')).toBe('28/09/2025');
    expect(formatDate(d, 'en')).toBe('09/28/2025');
  });
  it('reads a bare calendar date as that day in any time zone', () => {
    expect(formatDate('2025-09-28', 'it')).toBe('28/09/2025');
  });
});

describe("dates in the reader's region (issue 33, 11b)", () => {
  afterEach(() => setBrowserLanguages([]));
  const dec1 = new Date(2026, 11, 1);
  it('writes 1 December day first for an en-GB browser while the interface stays English', () => {
    setBrowserLanguages(['en-GB', 'en']);
    expect(formatDate(dec1, 'en')).toBe('01/12/2026');
    expect(formatDate(dec1, 'en-GB')).toBe('01/12/2026');
  });
  it('keeps month first for a US browser, an unknown region, and a region in the language', () => {
    setBrowserLanguages(['en-US']);
    expect(formatDate(dec1, 'en')).toBe('12/01/2026');
    setBrowserLanguages(['it-IT', 'fr']);
    expect(formatDate(dec1, 'en')).toBe('12/01/2026');
    setBrowserLanguages(['en-GB']);
    expect(formatDate(dec1, 'en-US')).toBe('12/01/2026');
    expect(formatDate(dec1, 'it')).toBe('01/12/2026');
  });
});

describe("numbers and plurals in the page's language (issue 33, 11a)", () => {
  it("writes a rating with the reader's decimal separator", () => {
    expect(formatDecimal(4.7, 'it')).toBe('4,7');
    expect(formatDecimal(4, 'it')).toBe('4,0');
    expect(formatDecimal(4.7, 'en')).toBe('4.7');
  });
});

describe('pageTitle', () => {
  it('follows the two title patterns', () => {
    expect(pageTitle('About')).toBe('About | Scaffale');
    expect(pageTitle('Library', 'Dune')).toBe('Library - Dune | Scaffale');
  });
});

describe('pickLanguage', () => {
  it('reads Accept-Language with weights and falls back to Italian', () => {
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en');
    expect(pickLanguage('fr-FR,en;q=0.5,it;q=0.8')).toBe('it');
    expect(pickLanguage('de')).toBe('it');
    expect(pickLanguage(undefined)).toBe('it');
  });
});
