/** The ads module's contract: the app's gauge of buffered events, the service for test set-up. */
export { bufferedAdEvents } from './routes';
export { createAdService } from './service';
