// The deals feature's public surface (issue 22): the deal's card under an accepted offer, and a
// step's line in the conversation.
export { DealCard } from './DealCard';
export { DealStepMessage, dealStepText } from './DealStepMessage';
export { dealKeys } from './api';
// Bundles (issue 22 item 3): the seller profile's and book page's entry points, the seller's rule.
export { AddToBundleButton, BundlePanel, BundleRuleSettings } from './bundles';
// Sale by post (decision 0074): saved addresses in settings, the parcel problems in /admin.
export { AddressesSection } from './post/AddressesSection';
export { CasesPanel } from './post/CasesPanel';
