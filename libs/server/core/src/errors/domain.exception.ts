/**
 * Base class for errors a service throws on purpose: a rule was broken, a thing was not found.
 * The global `AllExceptionsFilter` answers it with `httpStatus` and
 * `{ code, message, details?, correlationId }`, so `message` and `details` must be fit for the client.
 *
 * Each business area declares its own subclass with a code enum and an exhaustive
 * code -> status switch, so adding a code without choosing its status fails to compile:
 *
 * ```ts
 * // libs/server/stations/src/stations/stations.exception.ts
 * export enum StationsErrorCode {
 *   NotFound = 'STATION_NOT_FOUND',
 *   DuplicateSerial = 'STATION_DUPLICATE_SERIAL',
 *   Decommissioned = 'STATION_DECOMMISSIONED',
 * }
 *
 * export class StationsException extends DomainException {
 *   constructor(code: StationsErrorCode, message: string, details?: unknown) {
 *     super(code, message, StationsException.statusOf(code), details);
 *   }
 *
 *   static statusOf(code: StationsErrorCode): number {
 *     switch (code) {
 *       case StationsErrorCode.NotFound:
 *         return 404;
 *       case StationsErrorCode.DuplicateSerial:
 *         return 409;
 *       case StationsErrorCode.Decommissioned:
 *         return 422;
 *       default:
 *         return assertNever(code);
 *     }
 *   }
 * }
 *
 * // in StationsService
 * throw new StationsException(StationsErrorCode.NotFound, `Station ${id} does not exist`);
 * ```
 */
export class DomainException extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Makes a switch over a union exhaustive: a missing case leaves `value` not `never` and fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
