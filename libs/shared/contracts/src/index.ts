export * from './errors';
export * from './grid';
export * from './health';
export * from './auth';
export * from './identity';
export * from './platform-config';
export * from './messages';
