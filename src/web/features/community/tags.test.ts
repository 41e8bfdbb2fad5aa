import { describe, expect, it } from 'vitest';
import { parseTags } from './tags';

describe('parseTags', () => {
  it('splits on commas, trims, drops a leading #, empties and repeats (any case)', () => {
    expect(parseTags(' medieval , #mystery,, Medieval ,  ,## giallo ')).toEqual([
      'medieval',
      'mystery',
      'giallo',
    ]);
  });
  it('reads an empty box as no tags', () => {
    expect(parseTags('')).toEqual([]);
    expect(parseTags(' , ,')).toEqual([]);
  });
});
