import type { IncomingMessage, ServerResponse } from 'node:http';

// The parts of Express's request and response this library reads. Declared here because the
// workspace has no @types/express, and so middleware can be tested with plain Node objects.

export type HttpRequest = IncomingMessage & {
  originalUrl?: string;
  baseUrl?: string;
  /** Set by the router once a route matched. */
  route?: { path?: unknown };
  /** Set by `correlationMiddleware`. */
  correlationId?: string;
  /** Express: HTTPS, by the socket or (with `trust proxy`) by X-Forwarded-Proto. */
  secure?: boolean;
};

export type HttpResponse = ServerResponse;

export type NextFunction = (error?: unknown) => void;

export type Middleware = (req: HttpRequest, res: HttpResponse, next: NextFunction) => void;

export type ErrorMiddleware = (
  error: unknown,
  req: HttpRequest,
  res: HttpResponse,
  next: NextFunction,
) => void;
