export * from './v16/enums';
export * from './v16/messages';
export * from './v16/stop-kind';
export * from './v16/identity';
export * from './v16/meter-register';
