// Members' data rights: download my data, delete my account (settings → "Your data").
export { YourDataSection } from './YourDataSection';
