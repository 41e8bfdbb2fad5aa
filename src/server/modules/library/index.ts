/** The library module's contract: the search and the suggestions (benchmarks), the type filter. */
export { searchListings, TotalsCache, typeValues } from './search';
export { suggest } from './suggest';
/** Works (issue 35): a work and its copies as a visitor sees them (the work page's head). */
export { findWork, workCopies } from './works/queries';
/** What the ranking costs, measured by scripts/bench/library-costs.ts. */
export {
  type CompiledWords,
  Filters,
  RANKING_COLUMNS,
  compileWords,
  relevanceScore,
  searchWords,
} from './search';
