import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Optional,
  type Provider,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { healthCheck, ServiceMetrics, type HealthCheck } from '@voltdepot/server-core';
import type { EventBus } from './bus';
import { createEventBus, type BusConfig } from './create-event-bus';
import { describeError } from './delivery';
import { OutboxRelay, type OutboxRelayOptions } from './outbox/outbox-relay';
import { outboxRelayMetrics } from './outbox/outbox-relay.metrics';

/** Injection token of the process's one EventBus. */
export const EVENT_BUS = Symbol('EVENT_BUS');

/**
 * Injection token of the process's outbox relay (an `OutboxRelay`), provided unless the module was
 * given `outboxRelay: false`. A writer injects it with `@Optional()` and calls `nudge()` after a commit
 * that added outbox rows, so the events leave at once instead of at the next poll.
 */
export const OUTBOX_RELAY = Symbol('OUTBOX_RELAY');

/** The relay's settings; see `OutboxRelayOptions` (the module logs its errors and counts them). */
export type OutboxRelaySettings = Pick<
  OutboxRelayOptions,
  'batchSize' | 'idleMs' | 'busyCycleMs' | 'retainPublishedMs'
>;

export type MessagingOptions = {
  /**
   * The outbox relay of this process (default on). Every process that writes the outbox runs one; only
   * one of them publishes at a time (an advisory lock), the others stand by. `false` in a process that
   * never writes the outbox.
   */
  outboxRelay?: OutboxRelaySettings | false;
};

/**
 * Under a steady stream of commits a relay round starts at most this often: a round publishes dozens
 * of rows instead of one or two, for at most this much added delay (docs/architecture.md).
 */
export const DEFAULT_OUTBOX_RELAY: Required<
  Pick<OutboxRelaySettings, 'idleMs' | 'busyCycleMs' | 'batchSize'>
> = { idleMs: 200, busyCycleMs: 25, batchSize: 500 };

@Injectable()
class MessagingLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Optional() @Inject(OUTBOX_RELAY) private readonly relay?: OutboxRelay,
  ) {}

  onApplicationBootstrap(): void {
    this.relay?.start();
  }

  /** The relay stops first: it publishes through the bus. */
  async onApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
    await this.bus.close();
  }
}

function relayProvider(settings: OutboxRelaySettings): Provider {
  return {
    provide: OUTBOX_RELAY,
    inject: [DataSource, EVENT_BUS, { token: ServiceMetrics, optional: true }],
    useFactory: (dataSource: DataSource, bus: EventBus, serviceMetrics?: ServiceMetrics) => {
      const logger = new Logger('OutboxRelay');
      const metrics = serviceMetrics
        ? outboxRelayMetrics(serviceMetrics.registry, dataSource, (error) =>
            logger.warn(`outbox backlog not read: ${describeError(error)}`),
          )
        : undefined;
      return new OutboxRelay(dataSource, bus, {
        ...DEFAULT_OUTBOX_RELAY,
        ...settings,
        onPublished: (count) => metrics?.published(count),
        onError: (error) => {
          metrics?.failed();
          logger.warn(
            `outbox relay round failed (the rows stay for the next round): ${describeError(error)}`,
          );
        },
      });
    },
  };
}

/**
 * Provides the process-wide bus (one long-lived producer) and, unless switched off, the outbox relay
 * that publishes what this process (or any other) wrote to the outbox; starts the relay once the app is
 * up and stops it, then closes the bus, at shutdown. Global. The relay needs the app's `DataSource`.
 */
@Module({})
export class MessagingModule {
  static forRoot(config: BusConfig, options: MessagingOptions = {}): DynamicModule {
    const relay = options.outboxRelay === false ? [] : [relayProvider(options.outboxRelay ?? {})];
    return {
      module: MessagingModule,
      global: true,
      providers: [
        { provide: EVENT_BUS, useFactory: () => createEventBus(config) },
        ...relay,
        MessagingLifecycle,
      ],
      exports: [EVENT_BUS, ...(relay.length ? [OUTBOX_RELAY] : [])],
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
