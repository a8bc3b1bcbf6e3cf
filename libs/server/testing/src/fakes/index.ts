export * from './in-memory-table';
