import { describe, expect, it } from 'vitest';
import { formatMoney, storedMoney } from './money';

const NBSP = '\u00a0';

describe('formatMoney', () => {
  it('writes euros as an Italian reads them: "7,50 €"', () => {
    expect([0, 7.5, 1234.5].map((n) => formatMoney(n, 'EUR', 'it'))).toEqual([
      `0,00${NBSP}€`,
      `7,50${NBSP}€`,
      `1234,50${NBSP}€`,
    ]);
  });

  it('writes euros as an English reader reads them: "€7.50"', () => {
    expect([0, 7.5, 1234.5].map((n) => formatMoney(n, 'EUR', 'en'))).toEqual([
      '€0.00',
      '€7.50',
      '€1,234.50',
    ]);
  });

  it('writes dollars and pounds in both languages', () => {
    expect(formatMoney(7.5, 'USD', 'it')).toBe(`7,50${NBSP}USD`);
    expect(formatMoney(1234.5, 'USD', 'en')).toBe('$1,234.50');
    expect(formatMoney(0, 'GBP', 'it')).toBe(`0,00${NBSP}£`);
    expect(formatMoney(7.5, 'GBP', 'en')).toBe('£7.50');
  });

  it('never writes the code after a dotted amount ("7.50 EUR")', () => {
    for (const language of ['it', 'en', 'en-GB', undefined])
      expect(formatMoney(7.5, 'EUR', language)).not.toMatch(/7\.50 EUR/);
  });

  it('reads a numeric string (a PostgreSQL numeric) and writes nothing for no amount', () => {
    expect(formatMoney('15.00', 'EUR', 'it')).toBe(`15,00${NBSP}€`);
    expect([null, undefined, '', 'abc'].map((a) => formatMoney(a, 'EUR', 'it'))).toEqual(
      Array(4).fill(''),
    );
  });

  it('drops the cents when asked for whole units', () => {
    expect(formatMoney(1234.5, 'EUR', 'en', { whole: true })).toBe('€1,235');
    expect(formatMoney(40, 'EUR', 'it', { whole: true })).toBe(`40${NBSP}€`);
  });
});

describe('storedMoney', () => {
  it('formats an amount kept as a number with its currency', () => {
    expect(storedMoney(15, 'EUR', 'it')).toBe(`15,00${NBSP}€`);
    expect(storedMoney(15, 'EUR', 'en')).toBe('€15.00');
  });

  it('writes again an amount stored already written ("15.00 EUR")', () => {
    expect(storedMoney('15.00 EUR', undefined, 'it')).toBe(`15,00${NBSP}€`);
    expect(storedMoney('15.00 EUR', undefined, 'en')).toBe('€15.00');
  });

  it('shows any other text as it is', () => {
    expect(storedMoney('quindici euro', undefined, 'en')).toBe('quindici euro');
    expect(storedMoney(null, 'EUR', 'en')).toBe('');
  });
});
