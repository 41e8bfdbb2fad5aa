/** The connections module's contract: the subject of its notifications. */
export { SUBJECT as CONNECTION_SUBJECT } from './notifications';
