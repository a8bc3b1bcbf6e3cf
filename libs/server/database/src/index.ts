export * from './data-source.factory';
export * from './admin';
export { allMigrations } from './migrations';
export * from './query-result';
export * from './prepared-statement';
export * from './pg-pool';
export * from './sql-errors';
