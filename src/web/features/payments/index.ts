// The payments feature's public surface (issue 36): the payment inside a deal's card.
export { DealPayment } from './DealPayment';
export { CaseRefund, useHeldPayment, type CaseOutcomeBody } from './CaseRefund';
export { OfferFee } from './FeeNotes';
export { TermsFee } from './TermsFee';
