import { INestApplication } from '@nestjs/common';
import { IEntryNestModule, NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'pino';
import type { LogLevel } from '../config/service-config';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter';
import { requestBodyErrorTranslator } from '../errors/request-body-errors';
import { UnstorableTextInterceptor } from '../errors/text-input';
import { jsonTextTooDeep } from '../http/bounded-json';
import { correlationMiddleware } from '../logging/correlation.middleware';
import { securityHeadersMiddleware } from '../http/security-headers';
import { createLogger } from '../logging/logger';
import { NestPinoLogger } from '../logging/nest-logger';
import { ServiceMetrics } from '../observability/http-metrics';

/** The configuration fields bootstrapping reads; any `ServiceConfig` has them. */
export type BootstrapConfig = {
  SERVICE_NAME: string;
  LOG_LEVEL: LogLevel;
  PORT: number;
  /** A TLS proxy in front serves every request over HTTPS: answers carry HSTS. Default false. */
  BEHIND_TLS?: boolean;
  /** Proxies whose X-Forwarded-For is believed (Express `trust proxy`); none when absent or empty. */
  TRUST_PROXY?: readonly string[];
};

export type ServiceAppOptions = {
  config: BootstrapConfig;
  /** Defaults to a JSON logger named after SERVICE_NAME at LOG_LEVEL. */
  logger?: Logger;
  /** Largest accepted JSON / urlencoded body, in body-parser notation. Default `1mb`. */
  bodyLimit?: string;
  /** Deepest nesting of objects and arrays a JSON body may have (400 beyond). Default 32. */
  maxJsonDepth?: number;
  /** Paths whose request lines are logged at debug (probes, scrapers). */
  quietPaths?: readonly string[];
};

export type ServiceBootstrapOptions = ServiceAppOptions & {
  /** Defaults to config.PORT. */
  port?: number;
  /** Defaults to all interfaces. */
  host?: string;
  /** After SIGTERM/SIGINT, exit anyway if in-flight work has not finished by then. Default 10 s. */
  shutdownTimeoutMs?: number;
  /** Runs on the created app before it initialises and listens (e.g. registering the OpenAPI routes). */
  setup?: (app: NestExpressApplication) => void;
};

export type ServiceApp = { app: NestExpressApplication; logger: Logger };

/**
 * Creates a configured, not yet listening, Nest application. Tests use it with `app.init()`
 * and supertest; `bootstrapService` adds listening and process handling. Middleware order:
 * security headers -> correlation id + request log -> HTTP metrics -> body parsers -> body error
 * translation -> Nest routes (guards, then `UnstorableTextInterceptor`, then the route's pipes) ->
 * `AllExceptionsFilter` for everything thrown on the way.
 */
export async function createServiceApp(
  rootModule: IEntryNestModule,
  options: ServiceAppOptions,
): Promise<ServiceApp> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });
  const bodyLimit = options.bodyLimit ?? '1mb';

  const app = await NestFactory.create<NestExpressApplication>(rootModule, {
    logger: new NestPinoLogger(logger),
    // Our parsers are registered below, after the correlation and metrics middleware.
    bodyParser: false,
    // Throw instead of calling process.abort() when the module graph cannot be built.
    abortOnError: false,
  });
  app.disable('x-powered-by');
  // req.ip is then the client's address as the trusted proxies forward it, and the peer's otherwise.
  if (config.TRUST_PROXY !== undefined && config.TRUST_PROXY.length > 0) {
    app.set('trust proxy', [...config.TRUST_PROXY]);
  }

  app.use(securityHeadersMiddleware({ behindTls: config.BEHIND_TLS ?? false }));
  app.use(correlationMiddleware({ logger, quietPaths: options.quietPaths }));
  const metrics = optionalProvider(app, ServiceMetrics);
  if (metrics !== undefined) app.use(metrics.httpMiddleware());
  app.useBodyParser('json', { limit: bodyLimit, verify: refuseDeepJson(options.maxJsonDepth ?? 32) });
  app.useBodyParser('urlencoded', { limit: bodyLimit, extended: true });
  app.use(requestBodyErrorTranslator);

  app.useGlobalFilters(new AllExceptionsFilter(logger));
  app.useGlobalInterceptors(new UnstorableTextInterceptor());
  return { app, logger };
}

/**
 * The JSON parser's check of the raw body: nested deeper than `maxDepth`, it is a 400
 * (`entity.too.deep`, see request-body-errors) before it is parsed, so no code recurses over it.
 */
function refuseDeepJson(maxDepth: number) {
  return (_req: unknown, _res: unknown, body: Buffer, encoding: string): void => {
    const utf8 = /^utf-?8$/i.test(encoding) ? body : Buffer.from(new TextDecoder(encoding).decode(body));
    if (!jsonTextTooDeep(utf8, maxDepth)) return;
    throw Object.assign(new Error(`Request body is nested more than ${maxDepth} levels deep`), {
      status: 400,
      type: 'entity.too.deep',
      maxDepth,
    });
  };
}

/**
 * Starts a service: creates the app (see `createServiceApp`), closes it gracefully on SIGTERM/SIGINT
 * (Nest shutdown hooks: stop accepting, finish in-flight requests, close connections) and listens.
 * Start-up failures are logged and exit the process with code 1.
 *
 * ```ts
 * const config = loadConfigOrExit(apiConfigSchema);
 * void bootstrapService(AppModule.register(config), { config });
 * ```
 */
export async function bootstrapService(
  rootModule: IEntryNestModule,
  options: ServiceBootstrapOptions,
): Promise<NestExpressApplication> {
  const logger =
    options.logger ?? createLogger({ service: options.config.SERVICE_NAME, level: options.config.LOG_LEVEL });
  installProcessHandlers(logger, options.shutdownTimeoutMs ?? 10_000);
  try {
    const { app } = await createServiceApp(rootModule, { ...options, logger });
    options.setup?.(app);
    app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
    const port = options.port ?? options.config.PORT;
    if (options.host === undefined) await app.listen(port);
    else await app.listen(port, options.host);
    logger.info({ port }, 'listening');
    return app;
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    process.exit(1);
  }
}

function installProcessHandlers(logger: Logger, shutdownTimeoutMs: number): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      // Nest's own listener closes the app; this only bounds how long that may take.
      setTimeout(() => {
        logger.error({ signal, shutdownTimeoutMs }, 'graceful shutdown timed out; exiting');
        process.exit(1);
      }, shutdownTimeoutMs).unref();
    });
  }
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled promise rejection');
    process.exit(1);
  });
}

function optionalProvider<T>(
  app: INestApplication,
  token: abstract new (...args: never[]) => T,
): T | undefined {
  try {
    return app.get(token as never, { strict: false }) as T;
  } catch {
    return undefined;
  }
}
