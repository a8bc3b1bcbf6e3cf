/** The error body every service returns, whatever went wrong. */
export type ErrorBody = {
  code: string;
  message: string;
  details?: unknown;
  correlationId: string;
};

/** Error codes shared by all services. Areas add their own codes next to their exceptions. */
export const CommonErrorCodes = {
  Validation: 'VALIDATION_FAILED',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  BusinessRule: 'BUSINESS_RULE_VIOLATED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  Internal: 'INTERNAL_ERROR',
  Unavailable: 'SERVICE_UNAVAILABLE',
} as const;
export type CommonErrorCode = (typeof CommonErrorCodes)[keyof typeof CommonErrorCodes];

/** One failing field of a 400 response. */
export type FieldError = { field: string; message: string };
