/** The stats module's contract: the site's counts. */
export { countSiteStats } from './routes';
