import { describe, expect, it } from 'vitest';
import { bookLanguageName } from './bookLanguage';

describe('bookLanguageName', () => {
  it('names a catalogue code in its own language, as the sell form writes it', () => {
    expect(['it', 'en', 'IT', 'ita', 'fr', 'de'].map(bookLanguageName)).toEqual([
      'Italiano',
      'English',
      'Italiano',
      'Italiano',
      'Français',
      'Deutsch',
    ]);
  });

  it('keeps a name as written, an unknown code as it is, and nothing as nothing', () => {
    expect(['Italiano', ' English ', 'Dialetto milanese', 'qq'].map(bookLanguageName)).toEqual([
      'Italiano',
      'English',
      'Dialetto milanese',
      'qq',
    ]);
    expect([null, undefined, '', '  '].map(bookLanguageName)).toEqual(Array(4).fill(null));
  });
});
