import { describe, expect, it } from 'vitest';
import { formatCounter, formatDate, pageTitle } from './format';
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
