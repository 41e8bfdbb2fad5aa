import type { Genre } from './marketplaceConstants';

/**
 * A catalogue's categories (Google's 'Juvenile Fiction', 'Biography & Autobiography', 'Fiction /
 * Mystery & Detective'; a few Italian ones) as one of our genres: the first rule that matches,
 * the most specific first. Categories that match none: non-fiction; no categories: other.
 * Quick listings take their genre from here, and the full form starts from it.
 */
export function genreFromCategories(categories: readonly string[]): Genre {
  const text = categories.join(' / ').toLowerCase();
  const rules: [RegExp, Genre][] = [
    [/comic|graphic novel|manga|fumett/, 'comics'],
    [/young adult/, 'youngAdult'],
    [/juvenile|children|ragazzi|bambini/, 'children'],
    [/science fiction|sci-fi|fantascienza/, 'sciFi'],
    [/fantasy/, 'fantasy'],
    [/mystery|detective|crime|thriller|giall/, 'mystery'],
    [/romance|rosa\b/, 'romance'],
    [/biograph|autobiograph|memoir/, 'biography'],
    [/history|storia/, 'history'],
    [/self-help|self help/, 'selfHelp'],
    [/business|economics|management|economia/, 'business'],
    [/study aids|textbook|education|scolastic/, 'textbook'],
    [/science|mathematics|medical|philosophy|law|computers|technology|filosofia/, 'academic'],
    [/poetry|poesia/, 'poetry'],
    [/drama|plays|teatro/, 'drama'],
    [/non-?fiction|saggistica/, 'nonFiction'],
    [/\bfiction\b|narrativa|romanz/, 'fiction'],
  ];
  for (const [pattern, genre] of rules) if (pattern.test(text)) return genre;
  return categories.length > 0 ? 'nonFiction' : 'other';
}
