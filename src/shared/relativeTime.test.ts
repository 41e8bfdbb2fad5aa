import { describe, expect, it } from 'vitest';
import { relativeTime } from './relativeTime';

const now = Date.parse('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();
const MIN = 60_000;

describe('relativeTime', () => {
  it('is just now under one minute, and for a clock slightly ahead', () => {
    expect(relativeTime(ago(0), now)).toEqual({ unit: 'now' });
    expect(relativeTime(ago(59_999), now)).toEqual({ unit: 'now' });
    expect(relativeTime(ago(-5_000), now)).toEqual({ unit: 'now' });
  });
  it('counts whole minutes under an hour, hours under a day, days under a week', () => {
    expect(relativeTime(ago(MIN), now)).toEqual({ unit: 'minutes', count: 1 });
    expect(relativeTime(ago(59 * MIN + 59_000), now)).toEqual({ unit: 'minutes', count: 59 });
    expect(relativeTime(ago(60 * MIN), now)).toEqual({ unit: 'hours', count: 1 });
    expect(relativeTime(ago(24 * 60 * MIN - 1), now)).toEqual({ unit: 'hours', count: 23 });
    expect(relativeTime(ago(24 * 60 * MIN), now)).toEqual({ unit: 'days', count: 1 });
    expect(relativeTime(ago(7 * 24 * 60 * MIN - 1), now)).toEqual({ unit: 'days', count: 6 });
  });
  it('is a date from seven days, and for an unreadable value', () => {
    expect(relativeTime(ago(7 * 24 * 60 * MIN), now)).toEqual({ unit: 'date' });
    expect(relativeTime('not a date', now)).toEqual({ unit: 'date' });
  });
});
