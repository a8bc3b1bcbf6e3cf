export * from './envelope';
export * from './topics';
export * from './define-event';
export * from './ocpp-events';
export * from './order-events';
export * from './ledger-events';
export * from './iccard-events';
export * from './payload-schemas';
