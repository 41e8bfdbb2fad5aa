import { describe, expect, it } from 'vitest';
import {
  addressInputSchema,
  CARRIERS,
  postWindowEnd,
  shipInputSchema,
  trackingUrl,
} from './dealPost';

const DAY = 24 * 60 * 60 * 1000;

describe('the buyer’s window', () => {
  const shipped = new Date('2026-04-01T10:00:00Z');
  it('closes 14 days after shipping, or 2 days after “received” when that is sooner', () => {
    expect(postWindowEnd(shipped, null).getTime()).toBe(shipped.getTime() + 14 * DAY);
    const early = new Date(shipped.getTime() + 3 * DAY);
    expect(postWindowEnd(shipped, early).getTime()).toBe(early.getTime() + 2 * DAY);
    const late = new Date(shipped.getTime() + 13 * DAY);
    expect(postWindowEnd(shipped, late).getTime()).toBe(shipped.getTime() + 14 * DAY);
  });
});

describe('tracking', () => {
  it('links every known carrier to an https page carrying the number, and “other” to none', () => {
    for (const carrier of CARRIERS) {
      const url = trackingUrl(carrier, 'AB-12');
      if (carrier === 'other') expect(url).toBeNull();
      else if (url !== null) {
        expect(new URL(url).protocol).toBe('https:');
        expect(url).toContain('AB-12');
      }
    }
    expect(trackingUrl('dhl', 'JD01')).toBe(
      'https://www.dhl.com/it-it/home/tracking.html?tracking-id=JD01',
    );
  });

  it('accepts letters, digits and single dashes up to 40', () => {
    const ok = (tracking: string) =>
      shipInputSchema.safeParse({ carrier: 'gls', tracking }).success;
    expect(ok('RR123456789IT')).toBe(true);
    expect(ok('A-1-B')).toBe(true);
    expect(ok('x'.repeat(40))).toBe(true);
    for (const bad of ['x'.repeat(41), 'A--1', '-A1', 'A 1', 'A/1', '', 'A1?x=<script>'])
      expect(ok(bad)).toBe(false);
  });
});

describe('an address', () => {
  const base = { name: 'A', street: 'Via 1', postalCode: '00184', city: 'Roma', country: 'IT' };
  it('needs the fields a parcel needs, a country of the list and a plausible phone', () => {
    expect(addressInputSchema.parse(base)).toEqual({ ...base, region: '', phone: '' });
    expect(addressInputSchema.safeParse({ ...base, country: 'US' }).success).toBe(false);
    expect(addressInputSchema.safeParse({ ...base, name: '  ' }).success).toBe(false);
    expect(addressInputSchema.safeParse({ ...base, postalCode: '?' }).success).toBe(false);
    expect(addressInputSchema.safeParse({ ...base, phone: '+39 06 1234567' }).success).toBe(true);
    expect(addressInputSchema.safeParse({ ...base, phone: 'chiamami' }).success).toBe(false);
  });
});
