export { AddToBundleButton } from './AddToBundleButton';
export { BundlePanel } from './BundlePanel';
export { BundleRuleSettings } from './BundleRuleSettings';
