export * from './generated';
export * from './msg-center.generated';
export * from './ocpp-gateway.generated';
// Schemas every service shares (server-core's apiSchemas: one name, one shape) are in several
// documents: the api's types are the ones exported.
export type { ErrorBody, IdResponse } from './generated';
