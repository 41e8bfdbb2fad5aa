import type { Language } from '@shared/constants';
import type { Database } from '../../db/client';

/** What the server writes into the single-page app's <head> for one URL. */
export interface PageHead {
  status: 200 | 404;
  title: string;
  /** A shared link's title, without the site's name (the title by default). */
  ogTitle?: string;
  description: string;
  /** Absolute; left out of pages that are not found or not to be indexed. */
  canonical?: string;
  noindex?: boolean;
  ogType: 'website' | 'book' | 'profile';
  image?: string;
  /** Further Open Graph properties (book:isbn, profile:username). */
  og?: [property: string, content: string][];
  jsonLd?: object;
}

export interface HeadContext {
  database: Database;
  publicUrl: string;
  language: Language;
  /** The app's clock (only published reviews rate a member, decision 0073). */
  now?: () => Date;
}
