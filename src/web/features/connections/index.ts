export { ConnectionControl } from './ConnectionControl';
