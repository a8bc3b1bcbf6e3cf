/** Bus topics. One topic per stream of facts; keys are charge point ids unless stated. */
export const Topics = {
  /** Pile connected / disconnected / booted, connector status, pile errors, firmware and diagnostics progress. Key: chargePointId. */
  OcppStatus: 'ocpp.status',
  /** Transaction started, meter values, transaction stopped. Key: chargePointId. */
  OcppTransactions: 'ocpp.transactions',
  /** Orders settled from transactions, and their amendments. Key: chargePointId. */
  Orders: 'orders',
  /** Prepaid cards' authorisation by the ledger (blocked or not). Key: idTag. */
  LedgerCards: 'ledger.cards',
  /** IC cards registered or changed status, by the IC-card area. Key: cardNo. */
  IcCards: 'iccard.cards',
} as const;

export type Topic = (typeof Topics)[keyof typeof Topics];
