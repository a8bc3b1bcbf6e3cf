import { DynamicModule, Module } from '@nestjs/common';

/** Injection token for the service's validated configuration: `@Inject(SERVICE_CONFIG) config: ApiConfig`. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

/** Makes the configuration `loadConfig` returned injectable everywhere (global), frozen. */
@Module({})
export class ConfigModule {
  static forRoot<T extends object>(config: T): DynamicModule {
    return {
      module: ConfigModule,
      global: true,
      providers: [{ provide: SERVICE_CONFIG, useValue: Object.freeze({ ...config }) }],
      exports: [SERVICE_CONFIG],
    };
  }
}
