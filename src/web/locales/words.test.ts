import { describe, expect, it } from 'vitest';
import { translate } from '@shared/translator';
import itCatalogue from './it.json';
import enCatalogue from './en.json';

/** Issue 33, 11a: Italian words that agree with their numbers, dates and readers. */
describe('Italian words', () => {
  const it1 = (key: string, opts: Record<string, unknown>) =>
    translate(itCatalogue, 'it', key, opts);
  const en1 = (key: string, opts: Record<string, unknown>) =>
    translate(enCatalogue, 'en', key, opts);
  it('agrees a count of one in Italian', () => {
    expect(it1('savedSearches.count', { count: 1, max: 20 })).toBe('1 ricerca salvata su 20');
    expect(it1('savedSearches.count', { count: 2, max: 20 })).toBe('2 ricerche salvate su 20');
    expect(it1('reviews.stars', { count: 1 })).toBe('1 stella su 5');
    expect(it1('reviews.stars', { count: 4 })).toBe('4 stelle su 5');
    expect(it1('ads.promoted.ratingAtLeast', { count: 1, rating: '1' })).toBe('Almeno 1 stella');
    expect(it1('ads.promoted.ratingAtLeast', { count: 4.5, rating: '4,5' })).toBe(
      'Almeno 4,5 stelle',
    );
    expect(en1('ads.promoted.ratingAtLeast', { count: 1, rating: '1' })).toBe('1 star or more');
  });
  it('says "giorno" before a date after an article (never "fino al 11/12")', () => {
    expect(it1('holiday.away', { date: '11/12/2026' })).toMatch(/fino al giorno 11\/12\/2026/);
    const flat = JSON.stringify(itCatalogue);
    expect(flat).not.toMatch(/\b(al|dal|il) \{\{date\}\}/);
  });
  it('greets and names the library in neutral, single words', () => {
    const flat = JSON.stringify(itCatalogue);
    expect(flat).not.toMatch(/Benvenuto|Bentornato|Sono tornato|(nella|alla|mia) libreria/);
  });
  it('speaks to the reader, in e-mails too, without a masculine-only past participle', () => {
    const flat = JSON.stringify(itCatalogue);
    expect(flat).not.toMatch(
      /sei stato|stato (tu|io)\b|verrai \w+o\b|vieni \w+o\b|\b(dis)?connesso\b/i,
    );
    expect(it1('auth.email.passwordChanged.action', {})).toBe(
      "Non l'ho fatto io: reimposta la password",
    );
    expect(it1('auth.email.exists.ignore', {})).toBe("Se non l'hai fatto tu, ignora questa email.");
  });
});
