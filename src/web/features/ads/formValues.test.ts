import { describe, expect, it } from 'vitest';
import { adCreateSchema } from '@shared/schemas/ads';
import { changedFields, emptyAdValues, toInput, validateAd, valuesFromAd } from './formValues';

const t = ((key: string) => key) as never;
const now = new Date('2026-06-01T00:00:00Z');

describe('the ad form', () => {
  it('starts with the defaults: banner, the author’s language (English until known), EUR, budgets 0, this year', () => {
    const v = emptyAdValues(now);
    expect(v).toMatchObject({
      adType: 'banner',
      language: 'en',
      currency: 'EUR',
      dailyBudget: 0,
      totalBudget: 0,
      publicationYear: 2026,
    });
    // The book's language starts as the author's own when it is known.
    expect(emptyAdValues(now, 'it').language).toBe('it');
  });

  it('names each broken field once, under its own path', () => {
    const v = {
      ...emptyAdValues(),
      publicationYear: 1400,
      pageCount: 0,
      bookPrice: -1,
      dailyBudget: 1.234,
      keywords: 'ok, ' + 'x'.repeat(60) + ', ' + 'y'.repeat(60),
      trailerVideoUrl: 'not a url',
      purchaseLinks: { amazon: 'amazon', bookshop: '', barnes_noble: '', author_website: '' },
    };
    expect(validateAd(v, t)).toEqual({
      title: 'ads.validation.titleRequired',
      description: 'ads.validation.descriptionRequired',
      genre: 'ads.validation.genreRequired',
      publicationYear: 'ads.validation.yearRange',
      pageCount: 'ads.validation.pageCountMin',
      bookPrice: 'ads.validation.priceNegative',
      dailyBudget: 'ads.validation.amountStep',
      keywords: 'ads.validation.keywordTooLong',
      trailerVideoUrl: 'ads.validation.urlInvalid',
      'purchaseLinks.amazon': 'ads.validation.urlInvalid',
    });
  });

  it('sends comma-separated lists trimmed with the empties dropped', () => {
    const v = {
      ...emptyAdValues(),
      title: 'T',
      description: 'D',
      genre: 'fiction',
      keywords: ' noir , Milano,, ',
      targetAudience: 'adults,  ,students',
    };
    expect(validateAd(v, t)).toEqual({});
    const parsed = adCreateSchema.parse(toInput(v));
    expect(parsed.keywords).toEqual(['noir', 'milano']);
    expect(parsed.targetAudience).toEqual(['adults', 'students']);
  });

  it('edits send only what changed', () => {
    const initial = { ...emptyAdValues(now), title: 'A', description: 'B', genre: 'fiction' };
    expect(changedFields({ ...initial, title: 'A2' }, initial)).toEqual({ title: 'A2' });
    expect(
      changedFields(
        { ...initial, purchaseLinks: { ...initial.purchaseLinks, amazon: 'https://a.example' } },
        initial,
      ),
    ).toEqual({
      purchaseLinks: { ...initial.purchaseLinks, amazon: 'https://a.example' },
    });
  });

  it('pre-fills every field from an ad', () => {
    const v = valuesFromAd({
      title: 'T',
      subtitle: null,
      description: 'D',
      genre: 'thriller',
      language: 'it',
      isbn13: '9788845292613',
      publisher: 'P',
      publicationYear: 1980,
      pageCount: 500,
      adType: 'featured',
      keywords: ['a', 'b'],
      targetAudience: ['c'],
      coverImageUrl: '/uploads/x.webp',
      trailerVideoUrl: null,
      sampleChapterUrl: 'https://s.example',
      authorWebsiteUrl: null,
      socialLinks: [],
      purchaseLinks: { amazon: 'https://a.example' },
      bookPrice: 12.5,
      currency: 'GBP',
      dailyBudget: 5,
      totalBudget: 50,
      startDate: '2026-01-01',
      endDate: null,
    } as never);
    expect(v).toMatchObject({
      subtitle: '',
      genre: 'thriller',
      language: 'it',
      keywords: 'a, b',
      purchaseLinks: { amazon: 'https://a.example', bookshop: '' },
      currency: 'GBP',
      startDate: '2026-01-01',
      endDate: '',
      publicationYear: 1980,
    });
  });
});
