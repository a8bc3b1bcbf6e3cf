export * from './bus-battery';
export * from './depot-clock';
export * from './transaction-message-queue';
export * from './simulated-pile';
export * from './charging-profiles';
export * from './field-behaviours';
