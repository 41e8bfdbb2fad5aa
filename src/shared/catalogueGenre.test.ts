import { describe, expect, it } from 'vitest';
import { genreFromCategories } from './catalogueGenre';

describe('genreFromCategories', () => {
  it('maps a catalogue’s categories to our genres, the most specific first', () => {
    const cases: [string[], string][] = [
      [['Juvenile Fiction'], 'children'],
      [['Young Adult Fiction / Fantasy / General'], 'youngAdult'],
      [['Fiction / Science Fiction / General'], 'sciFi'],
      [['Fiction / Mystery & Detective / General'], 'mystery'],
      [['Biography & Autobiography'], 'biography'],
      [['Comics & Graphic Novels'], 'comics'],
      [['History'], 'history'],
      [['Poetry'], 'poetry'],
      [['Fiction'], 'fiction'],
      [['Narrativa'], 'fiction'],
      [['Gialli'], 'mystery'],
      [['Nonfiction'], 'nonFiction'],
      [['Non-Fiction'], 'nonFiction'],
      [['Cooking'], 'nonFiction'],
      [[], 'other'],
    ];
    for (const [categories, genre] of cases)
      expect(genreFromCategories(categories), categories.join()).toBe(genre);
  });
});
