/** The catalogue module's contract: finding books, their covers, prefix queries. */
export {
  type BookRow,
  coverPath,
  findBookByGoogleId,
  findBookById,
  findBookByIsbn,
  prefixQuery,
} from './queries';
