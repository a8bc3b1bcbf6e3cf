export * from './generated';
export * from './msg-center.generated';
