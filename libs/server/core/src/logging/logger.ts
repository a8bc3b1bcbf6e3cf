import pino, { DestinationStream, Logger } from 'pino';
import { LogLevel } from '../config/service-config';
import { currentCorrelationId } from './correlation-context';

export type { Logger } from 'pino';

export type LoggerOptions = {
  service: string;
  level?: LogLevel;
  /** Where lines go; stdout when omitted. Tests pass a stream to read them back. */
  destination?: DestinationStream;
};

/**
 * The JSON logger every service uses: one object per line with `time` (ISO), `level` (name),
 * `service`, `msg`, and `correlationId` while one is active (see `runWithCorrelation`).
 * Credentials that might slip into a logged object are redacted.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const correlationId = currentCorrelationId();
        return correlationId === undefined ? {} : { correlationId };
      },
      redact: {
        paths: [
          'password',
          '*.password',
          'token',
          '*.token',
          'authorization',
          '*.authorization',
          'headers.cookie',
          '*.headers.cookie',
          'headers.authorization',
          '*.headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
