import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { healthCheck, type HealthCheck } from '@voltdepot/server-core';
import type { EventBus } from './bus';
import { createEventBus, type BusConfig } from './create-event-bus';

/** Injection token of the process's one EventBus. */
export const EVENT_BUS = Symbol('EVENT_BUS');

@Injectable()
class EventBusLifecycle implements OnApplicationShutdown {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}

/** Provides the process-wide bus (one long-lived producer) and closes it at shutdown. Global. */
@Module({})
export class MessagingModule {
  static forRoot(config: BusConfig): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      providers: [{ provide: EVENT_BUS, useFactory: () => createEventBus(config) }, EventBusLifecycle],
      exports: [EVENT_BUS],
    };
  }
}

/** /health probe of the bus: the broker answers. */
export function busCheck(bus: EventBus): HealthCheck {
  return healthCheck(`bus:${bus.driver}`, () => bus.ping());
}

/** Bus settings from a service's validated configuration. */
export function busConfigFromService(
  config: { BUS: 'redis' | 'kafka'; REDIS_URL: string; KAFKA_BROKERS?: string[]; BUS_PREFIX?: string },
  clientId: string,
): BusConfig {
  const prefix = config.BUS_PREFIX ?? 'vd';
  return config.BUS === 'kafka'
    ? { driver: 'kafka', brokers: config.KAFKA_BROKERS ?? [], clientId, topicPrefix: `${prefix}.` }
    : { driver: 'redis', url: config.REDIS_URL, prefix };
}
