/** The seo module's contract: the page heads the app serves with the web page. */
export { pageHeads } from './head';
