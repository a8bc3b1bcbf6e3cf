import { LoggerService, LogLevel as NestLogLevel } from '@nestjs/common';
import { Level, Logger } from 'pino';

const LEVEL_FOR: Record<NestLogLevel, Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** Nest's start-up chatter (one line per module and route); kept at debug so info stays readable. */
const DEFAULT_QUIET_CONTEXTS = ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'];

/**
 * Routes Nest's own log calls through pino so every line a service prints is JSON.
 * Nest calls `log(message, ...params)` where the last string param is the context, and
 * `error(message, stack?, context?)`.
 */
export class NestPinoLogger implements LoggerService {
  private readonly quietContexts: ReadonlySet<string>;

  constructor(
    private readonly logger: Logger,
    options: { quietContexts?: readonly string[] } = {},
  ) {
    this.quietContexts = new Set(options.quietContexts ?? DEFAULT_QUIET_CONTEXTS);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(nestLevel: NestLogLevel, message: unknown, params: unknown[]): void {
    const rest = [...params];
    const context =
      rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    let level = LEVEL_FOR[nestLevel];
    if (level === 'info' && context !== undefined && this.quietContexts.has(context)) level = 'debug';

    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields['context'] = context;

    // error(message, stack, context): Nest passes the stack as a separate string.
    if (nestLevel === 'error' || nestLevel === 'fatal') {
      const stack = rest.find((p): p is string => typeof p === 'string' && p.includes('\n    at '));
      if (stack !== undefined) fields['stack'] = stack;
    }

    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
