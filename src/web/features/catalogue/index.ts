export { CatalogueSearch, SELECTION_CLEAR_MS } from './CatalogueSearch';
export { useCatalogueSearch } from './useCatalogueSearch';
export { CatalogueResultList } from './CatalogueResultList';
