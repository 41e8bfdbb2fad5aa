/** The library module's contract: the search and the suggestions (benchmarks), the type filter. */
export { searchListings, TotalsCache, typeValues } from './search';
export { suggest } from './suggest';
/** Works (issue 35): a work and its copies as a visitor sees them (the work page's head). */
export { findWork, workCopies } from './works/queries';
/** What the ranking and the newest window cost, measured by scripts/bench/library-costs.ts and library-newest.ts. */
export {
  type CompiledWords,
  Filters,
  RANKING_COLUMNS,
  buildFilters,
  compileWords,
  newestPage,
  relevanceScore,
  searchWords,
} from './search';
