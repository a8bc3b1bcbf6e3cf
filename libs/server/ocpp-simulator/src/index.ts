export * from './bus-battery';
export * from './transaction-message-queue';
export * from './simulated-pile';
