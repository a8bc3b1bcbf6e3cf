import {
  DynamicModule,
  InjectionToken,
  Module,
  ModuleMetadata,
  OptionalFactoryDependency,
  Provider,
} from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ServiceMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { OBSERVABILITY_OPTIONS, ObservabilityOptions } from './observability.options';

export type ObservabilityAsyncOptions = Pick<ModuleMetadata, 'imports'> & {
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
  useFactory: (...deps: never[]) => ObservabilityOptions | Promise<ObservabilityOptions>;
};

/**
 * `GET /health` and `GET /metrics` (both `@Public()`), and a `ServiceMetrics` provider that any
 * module may inject to register its own metrics. Global, so import it once in the app module.
 *
 * ```ts
 * ObservabilityModule.forRoot({
 *   service: config.SERVICE_NAME,
 *   version: config.SERVICE_VERSION,
 *   checks: [postgresUrlCheck(config.DATABASE_URL), redisUrlCheck(config.REDIS_URL)],
 * })
 * // or, with clients from other modules:
 * ObservabilityModule.forRootAsync({
 *   imports: [DatabaseModule],
 *   inject: [DataSource, REDIS_CLIENT],
 *   useFactory: (db: DataSource, redis: Redis) => ({ service: 'api', checks: [postgresCheck(db), redisCheck(redis)] }),
 * })
 * ```
 */
@Module({})
export class ObservabilityModule {
  static forRoot(options: ObservabilityOptions): DynamicModule {
    return ObservabilityModule.build([], { provide: OBSERVABILITY_OPTIONS, useValue: options });
  }

  static forRootAsync(options: ObservabilityAsyncOptions): DynamicModule {
    return ObservabilityModule.build(options.imports ?? [], {
      provide: OBSERVABILITY_OPTIONS,
      inject: options.inject ?? [],
      useFactory: options.useFactory as (
        ...deps: unknown[]
      ) => ObservabilityOptions | Promise<ObservabilityOptions>,
    });
  }

  private static build(
    imports: NonNullable<ModuleMetadata['imports']>,
    optionsProvider: Provider,
  ): DynamicModule {
    return {
      module: ObservabilityModule,
      global: true,
      imports,
      controllers: [HealthController, MetricsController],
      providers: [
        optionsProvider,
        HealthService,
        {
          provide: ServiceMetrics,
          inject: [OBSERVABILITY_OPTIONS],
          useFactory: (o: ObservabilityOptions) =>
            new ServiceMetrics({ service: o.service, defaultMetrics: o.defaultMetrics }),
        },
      ],
      exports: [ServiceMetrics, HealthService],
    };
  }
}
