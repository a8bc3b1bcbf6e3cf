import {
  ArgumentsHost,
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  MethodNotAllowedException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { CommonErrorCodes } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { HttpRequest, HttpResponse } from '../http/express-types';
import { CORRELATION_ID_HEADER, runWithCorrelation } from '../logging/correlation-context';
import { createLogger } from '../logging/logger';
import { logSink } from '../logging/test-log-sink';
import { AllExceptionsFilter, toErrorReply } from './all-exceptions.filter';
import { CommonException } from './common.exception';
import { assertNever, DomainException } from './domain.exception';
import { ValidationException } from './validation.exception';

enum ChargingErrorCode {
  GunBusy = 'CHARGING_GUN_BUSY',
  SessionMissing = 'CHARGING_SESSION_MISSING',
}

/** The pattern areas follow (see DomainException's doc comment). */
class ChargingException extends DomainException {
  constructor(code: ChargingErrorCode, message: string, details?: unknown) {
    super(code, message, ChargingException.statusOf(code), details);
  }
  static statusOf(code: ChargingErrorCode): number {
    switch (code) {
      case ChargingErrorCode.GunBusy:
        return 409;
      case ChargingErrorCode.SessionMissing:
        return 404;
      default:
        return assertNever(code);
    }
  }
}

/** Errors shaped like those of body-parser (http-errors). */
function httpError(
  status: number,
  type: string,
  message: string,
  extra: Record<string, unknown> = {},
): Error {
  return Object.assign(
    status === 400 && type === 'entity.parse.failed' ? new SyntaxError(message) : new Error(message),
    { status, statusCode: status, expose: true, type, ...extra },
  );
}

const zodError = z
  .object({
    name: z.string(),
    maxPowerW: z.number().int().positive(),
    guns: z.array(z.object({ no: z.number() })),
  })
  .safeParse({ maxPowerW: -5, guns: [{ no: 'x' }] }).error!;

type Row = [string, unknown, number, { code: string; message: string; details?: unknown }];

const table: Row[] = [
  [
    'area DomainException',
    new ChargingException(ChargingErrorCode.GunBusy, 'Gun 2 of pile P-01 is busy', { gunNo: 2 }),
    409,
    { code: 'CHARGING_GUN_BUSY', message: 'Gun 2 of pile P-01 is busy', details: { gunNo: 2 } },
  ],
  [
    'area DomainException without details',
    new ChargingException(ChargingErrorCode.SessionMissing, 'No session 9'),
    404,
    { code: 'CHARGING_SESSION_MISSING', message: 'No session 9' },
  ],
  [
    'CommonException',
    new CommonException(CommonErrorCodes.BusinessRule, 'Price plan stages overlap'),
    422,
    { code: 'BUSINESS_RULE_VIOLATED', message: 'Price plan stages overlap' },
  ],
  [
    'ValidationException',
    new ValidationException([{ field: 'page', message: 'must be ≥ 1' }]),
    400,
    {
      code: 'VALIDATION_FAILED',
      message: 'Validation failed: page: must be ≥ 1',
      details: [{ field: 'page', message: 'must be ≥ 1' }],
    },
  ],
  [
    'ZodError',
    zodError,
    400,
    {
      code: 'VALIDATION_FAILED',
      message:
        'Validation failed: name: Required; maxPowerW: Number must be greater than 0; guns.0.no: Expected number, received string',
      details: [
        { field: 'name', message: 'Required' },
        { field: 'maxPowerW', message: 'Number must be greater than 0' },
        { field: 'guns.0.no', message: 'Expected number, received string' },
      ],
    },
  ],
  [
    'BadRequestException(message)',
    new BadRequestException('Validation failed (numeric string is expected)'),
    400,
    { code: 'VALIDATION_FAILED', message: 'Validation failed (numeric string is expected)' },
  ],
  [
    'BadRequestException(string[])',
    new BadRequestException(['name must be a string', 'page must be positive']),
    400,
    {
      code: 'VALIDATION_FAILED',
      message: 'name must be a string; page must be positive',
      details: ['name must be a string', 'page must be positive'],
    },
  ],
  [
    'UnauthorizedException',
    new UnauthorizedException(),
    401,
    { code: 'UNAUTHORIZED', message: 'Unauthorized' },
  ],
  [
    'ForbiddenException',
    new ForbiddenException('Missing resource station:write'),
    403,
    { code: 'FORBIDDEN', message: 'Missing resource station:write' },
  ],
  [
    'NotFoundException (unknown route)',
    new NotFoundException('Cannot GET /nope'),
    404,
    { code: 'NOT_FOUND', message: 'Cannot GET /nope' },
  ],
  [
    'ConflictException',
    new ConflictException('Serial already registered'),
    409,
    { code: 'CONFLICT', message: 'Serial already registered' },
  ],
  [
    'PayloadTooLargeException',
    new PayloadTooLargeException(),
    413,
    { code: 'PAYLOAD_TOO_LARGE', message: 'Payload Too Large' },
  ],
  [
    'UnprocessableEntityException',
    new UnprocessableEntityException('Gun is faulted'),
    422,
    { code: 'BUSINESS_RULE_VIOLATED', message: 'Gun is faulted' },
  ],
  [
    'other 4xx keeps its status',
    new MethodNotAllowedException(),
    405,
    { code: 'VALIDATION_FAILED', message: 'Method Not Allowed' },
  ],
  [
    'UnsupportedMediaTypeException',
    new UnsupportedMediaTypeException(),
    415,
    { code: 'VALIDATION_FAILED', message: 'Unsupported Media Type' },
  ],
  [
    'HttpException with a plain string',
    new HttpException('Too many attempts', 429),
    429,
    { code: 'VALIDATION_FAILED', message: 'Too many attempts' },
  ],
  [
    'ServiceUnavailableException hides its message',
    new ServiceUnavailableException('redis at 10.0.0.5 down'),
    503,
    { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' },
  ],
  [
    'InternalServerErrorException hides its message',
    new InternalServerErrorException('db password wrong'),
    500,
    { code: 'INTERNAL_ERROR', message: 'Internal server error' },
  ],
  [
    'malformed JSON (body-parser)',
    httpError(400, 'entity.parse.failed', 'Unexpected token } in JSON at position 9'),
    400,
    {
      code: 'VALIDATION_FAILED',
      message: 'Malformed JSON in request body: Unexpected token } in JSON at position 9',
    },
  ],
  [
    'body too large (body-parser)',
    httpError(413, 'entity.too.large', 'request entity too large', { limit: 1048576, length: 2000000 }),
    413,
    {
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Request body is too large: the limit is 1048576 bytes',
      details: { limitBytes: 1048576, lengthBytes: 2000000 },
    },
  ],
  [
    'unsupported charset (body-parser)',
    httpError(415, 'charset.unsupported', 'unsupported charset "KOI8-R"', { charset: 'koi8-r' }),
    415,
    { code: 'VALIDATION_FAILED', message: 'Unsupported charset "koi8-r"' },
  ],
  [
    'aborted body (body-parser)',
    httpError(400, 'request.aborted', 'request aborted'),
    400,
    { code: 'VALIDATION_FAILED', message: 'Request body was aborted by the client' },
  ],
  [
    'plain Error',
    new Error('relation "station" does not exist'),
    500,
    { code: 'INTERNAL_ERROR', message: 'Internal server error' },
  ],
  [
    'TypeError',
    new TypeError("Cannot read properties of undefined (reading 'id')"),
    500,
    { code: 'INTERNAL_ERROR', message: 'Internal server error' },
  ],
  [
    'non-exposable http-error',
    Object.assign(new Error('stream encoding should not be set'), {
      status: 500,
      expose: false,
      type: 'stream.encoding.set',
    }),
    500,
    { code: 'INTERNAL_ERROR', message: 'Internal server error' },
  ],
  ['a thrown string', 'oops', 500, { code: 'INTERNAL_ERROR', message: 'Internal server error' }],
  ['undefined', undefined, 500, { code: 'INTERNAL_ERROR', message: 'Internal server error' }],
];

type Captured = { status?: number; headers: Record<string, unknown>; body?: string };

function httpHost(
  req: Partial<HttpRequest>,
  presetHeaders: Record<string, unknown> = {},
): { host: ArgumentsHost; out: Captured } {
  const out: Captured = { headers: { ...presetHeaders } };
  const res = {
    headersSent: false,
    writableEnded: false,
    set statusCode(value: number) {
      out.status = value;
    },
    setHeader: (name: string, value: unknown) => void (out.headers[name.toLowerCase()] = value),
    getHeader: (name: string) => out.headers[name.toLowerCase()],
    end: (body?: string) => void (out.body = body),
  } as unknown as HttpResponse;
  const request = { method: 'POST', url: '/api/x', headers: {}, ...req } as HttpRequest;
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => res, getNext: () => undefined }),
  } as unknown as ArgumentsHost;
  return { host, out };
}

function setup() {
  const sink = logSink();
  return {
    sink,
    filter: new AllExceptionsFilter(
      createLogger({ service: 'api', level: 'debug', destination: sink.stream }),
    ),
  };
}

describe('AllExceptionsFilter', () => {
  it.each(table.map(([name, error, status, body]) => ({ name, error, status, body })))(
    '$name -> $status',
    ({ error, status, body }) => {
      const { filter } = setup();
      const { host, out } = httpHost({});
      runWithCorrelation('corr-1', () => filter.catch(error, host));
      expect(out.status).toBe(status);
      expect(out.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(out.body!)).toEqual({ ...body, correlationId: 'corr-1' });
      expect(toErrorReply(error)).toEqual({ status, body });
    },
  );

  it('logs unexpected errors with their stack, and sends none of it', () => {
    const { filter, sink } = setup();
    const { host, out } = httpHost({ originalUrl: '/api/stations?secret=1' });
    const error = new Error('connection to 10.1.2.3 refused');
    runWithCorrelation('corr-2', () => filter.catch(error, host));
    expect(out.body).not.toContain('10.1.2.3');
    expect(out.body).not.toContain('at ');
    const line = sink.lines.find((l) => l.level === 'error')!;
    expect(line).toMatchObject({
      msg: 'request failed',
      correlationId: 'corr-2',
      status: 500,
      path: '/api/stations',
      err: { message: 'connection to 10.1.2.3 refused' },
    });
    expect((line.err as { stack: string }).stack).toContain('all-exceptions.filter.spec');
  });

  it('logs client errors at debug only', () => {
    const { filter, sink } = setup();
    filter.catch(new NotFoundException(), httpHost({}).host);
    expect(sink.lines.map((l) => l.level)).toEqual(['debug']);
  });

  it('falls back to the request and then the response header for the correlation id', () => {
    const { filter } = setup();
    const fromRequest = httpHost({ correlationId: 'from-req' });
    filter.catch(new NotFoundException(), fromRequest.host);
    expect(JSON.parse(fromRequest.out.body!).correlationId).toBe('from-req');

    const fromHeader = httpHost({}, { [CORRELATION_ID_HEADER]: 'from-header' });
    filter.catch(new NotFoundException(), fromHeader.host);
    expect(JSON.parse(fromHeader.out.body!).correlationId).toBe('from-header');
  });

  it('makes up a correlation id when none exists, and sends it as a header too', () => {
    const { filter } = setup();
    const { host, out } = httpHost({});
    filter.catch(new Error('x'), host);
    const id = JSON.parse(out.body!).correlationId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.headers[CORRELATION_ID_HEADER]).toBe(id);
  });
});

describe('area exception pattern', () => {
  it('maps every code through the exhaustive switch', () => {
    expect(Object.values(ChargingErrorCode).map((c) => [c, ChargingException.statusOf(c)])).toEqual([
      ['CHARGING_GUN_BUSY', 409],
      ['CHARGING_SESSION_MISSING', 404],
    ]);
    const error = new ChargingException(ChargingErrorCode.GunBusy, 'busy');
    expect(error).toBeInstanceOf(DomainException);
    expect(error.name).toBe('ChargingException');
  });
});
