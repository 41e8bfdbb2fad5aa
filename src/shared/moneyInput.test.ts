import { describe, expect, it } from 'vitest';
import {
  decimalSeparator,
  formatMoneyInput,
  parseMoney,
  priceNeedsConfirmation,
  PRICE_CONFIRM_ABOVE,
} from './money';

describe('formatMoneyInput', () => {
  it('writes the reader\'s decimal separator and two decimals: "8,90" / "8.90"', () => {
    expect(formatMoneyInput(8.9, 'it')).toBe('8,90');
    expect(formatMoneyInput('8.9', 'it')).toBe('8,90');
    expect(formatMoneyInput(8.9, 'en')).toBe('8.90');
    expect(formatMoneyInput(1234.5, 'it')).toBe('1234,50');
    expect(formatMoneyInput(5, 'en-GB')).toBe('5.00');
    expect(decimalSeparator('it')).toBe(',');
    expect(decimalSeparator('en')).toBe('.');
  });

  it('writes nothing for no amount', () => {
    expect(formatMoneyInput(null, 'it')).toBe('');
    expect(formatMoneyInput(undefined, 'en')).toBe('');
    expect(formatMoneyInput('', 'en')).toBe('');
  });
});

describe('parseMoney', () => {
  it('reads either separator as decimal before one or two digits, in both languages', () => {
    for (const language of ['it', 'en']) {
      expect(parseMoney('6,50', language)).toBe(6.5);
      expect(parseMoney('6.50', language)).toBe(6.5);
      expect(parseMoney('6,5', language)).toBe(6.5);
      expect(parseMoney('5', language)).toBe(5);
      expect(parseMoney(',50', language)).toBe(0.5);
      // Still typing: "6," is six.
      expect(parseMoney('6,', language)).toBe(6);
    }
  });

  it('reads a pasted amount with thousands and a currency: "1.234,50 €", "€1,234.50"', () => {
    expect(parseMoney('1.234,50', 'it')).toBe(1234.5);
    expect(parseMoney('1.234,50 €', 'it')).toBe(1234.5);
    expect(parseMoney('€1,234.50', 'en')).toBe(1234.5);
    expect(parseMoney('1,234.50', 'it')).toBe(1234.5);
    expect(parseMoney(' 6,50\u00a0€ ', 'it')).toBe(6.5);
    expect(parseMoney('6.50 EUR', 'en')).toBe(6.5);
    expect(parseMoney('1.234.567', 'it')).toBe(1234567);
    expect(parseMoney('1 234,50', 'it')).toBe(1234.5);
  });

  it("a separator before three digits groups when it is the reader's thousands separator", () => {
    expect(parseMoney('1.234', 'it')).toBe(1234);
    expect(parseMoney('1,234', 'en')).toBe(1234);
    // The reader's decimal separator: three decimals, which the form refuses (not a guess).
    expect(parseMoney('1,234', 'it')).toBe(1.234);
    expect(parseMoney('1.234', 'en')).toBe(1.234);
  });

  it('is empty for nothing and NaN for what is not an amount', () => {
    expect(parseMoney('', 'it')).toBeNull();
    expect(parseMoney('   ', 'en')).toBeNull();
    expect(parseMoney('€', 'en')).toBeNull();
    for (const bad of ['abc', '6,50,1', '1.23.4', '12a', '1,2.3', '.', '1e5', '6\u000050', '--5'])
      expect(parseMoney(bad, 'it'), bad).toBeNaN();
  });

  it('keeps a minus, for the form to refuse it with its own message', () => {
    expect(parseMoney('-5', 'it')).toBe(-5);
  });

  it('a huge amount is a number (the schema refuses it), never Infinity', () => {
    const value = parseMoney('9'.repeat(400), 'en');
    expect(Number.isNaN(value)).toBe(true);
    expect(parseMoney('999999999', 'en')).toBe(999999999);
  });

  it('round-trips what it formats', () => {
    for (const language of ['it', 'en'])
      for (const n of [0, 0.01, 5, 6.5, 8.9, 105, 1234.5])
        expect(parseMoney(formatMoneyInput(n, language), language)).toBe(n);
  });
});

describe('priceNeedsConfirmation', () => {
  it('asks above the ceiling, or far above the usual price for the book', () => {
    expect(PRICE_CONFIRM_ABOVE).toBe(500);
    expect(priceNeedsConfirmation(500)).toBe(false);
    expect(priceNeedsConfirmation(900)).toBe(true);
    expect(priceNeedsConfirmation(650)).toBe(true);
    expect(priceNeedsConfirmation(60, 10)).toBe(true);
    expect(priceNeedsConfirmation(40, 10)).toBe(false);
    expect(priceNeedsConfirmation(null)).toBe(false);
    expect(priceNeedsConfirmation(Number.NaN)).toBe(false);
  });
});
