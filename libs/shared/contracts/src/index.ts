export * from './errors';
export * from './grid';
export * from './health';
