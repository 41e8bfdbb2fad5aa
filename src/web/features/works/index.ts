export { useWork, workKeys } from './api';
