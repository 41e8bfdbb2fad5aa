/** The users module's contract: the completed-exchanges count. */
export { COMPLETED_COUNT } from './completed';
