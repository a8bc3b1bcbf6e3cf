import type { MsgLevel } from '@voltdepot/shared-contracts';

/** Bus events an event rule can match (msg-center's RULE_EVENT_TYPES) and their label keys. */
export const RULE_EVENT_TYPES = {
  'transaction.stopped': 'messages.event.types.transactionStopped',
  'pile.error': 'messages.event.types.pileError',
  'pile.error-cleared': 'messages.event.types.pileErrorCleared',
} as const;
export type RuleEventType = keyof typeof RULE_EVENT_TYPES;

/** Event values a condition can test, per event type (they are also the template's variables). */
export const CONDITION_FIELDS: Record<RuleEventType, string> = {
  'transaction.stopped': 'stopKind (normal | abnormal), reasonCode, pile, gun',
  'pile.error': 'errorCode, status, pile, gun, vendorErrorCode',
  'pile.error-cleared': 'errorCode (the error that ended), currentErrorCode, status, pile, gun',
};

export const LEVEL_COLORS: Record<MsgLevel, string> = {
  PROMPT: 'blue',
  MINOR: 'cyan',
  IMPORTANT: 'orange',
  EMERGENCY: 'red',
};
