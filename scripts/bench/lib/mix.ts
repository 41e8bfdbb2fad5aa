/**
 * The library's query mix: mostly browsing with filters, a good share of text search, a few
 * typos, every sort and some deep pages. The API and the floors cycle through it in this order.
 */
export function queryMix(): string[] {
  const text = [
    'harry',
    'hunger games',
    'tolkien',
    'king',
    'love',
    'war',
    'the girl',
    'austen',
    'murakami',
    'gatsby',
    'dragon',
    'night',
    'rowling',
    'orwell 1984',
    'christie',
  ];
  const typos = ['hary poter', 'tolkein', 'murakmi'];
  const genres = ['fiction', 'fantasy', 'mystery', 'romance', 'sciFi', 'history', 'children'];
  const mix: string[] = [''];
  for (const q of text) {
    mix.push(`q=${encodeURIComponent(q)}`);
    mix.push(`q=${encodeURIComponent(q)}&sort=price_asc`);
  }
  for (const g of genres) {
    mix.push(`genre=${g}`);
    mix.push(`genre=${g}&sort=price_desc&page=2`);
    mix.push(`genre=${g}&minPrice=5&maxPrice=20&type=sell`);
  }
  mix.push('sort=price_asc', 'sort=price_desc', 'page=3', 'page=40', 'type=trade', 'type=both');
  mix.push('minPrice=10&maxPrice=25', 'maxPrice=8', 'status=all', 'status=sold');
  mix.push('author=king', 'author=rowling&status=all', 'q=harry&genre=fantasy&maxPrice=30');
  for (const q of typos) mix.push(`q=${encodeURIComponent(q)}`);
  return mix;
}

export const apiPath = (q: string) => `/api/listings${q ? `?${q}` : ''}`;
