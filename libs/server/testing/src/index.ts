export * from './test-database';
export * from './test-env';
export * from './eventually';
export * from './child-process';
export * from './route-walk';
export * from './generated-client';
