import type { BusDriverName, EventBus } from './bus';
import { KafkaBus, type KafkaBusOptions } from './kafka/kafka.bus';
import { RedisStreamsBus, type RedisStreamsBusOptions } from './redis/redis-streams.bus';

export type BusConfig =
  ({ driver: 'redis' } & RedisStreamsBusOptions) | ({ driver: 'kafka' } & KafkaBusOptions);

/** Pick the driver from configuration (`BUS=redis|kafka`, default redis). */
export function createEventBus(config: BusConfig): EventBus {
  switch (config.driver) {
    case 'redis':
      return new RedisStreamsBus(config);
    case 'kafka':
      return new KafkaBus(config);
  }
}

export type BusEnv = { BUS?: string; REDIS_URL?: string; KAFKA_BROKERS?: string; BUS_PREFIX?: string };

/** Build the bus configuration from environment variables, with a precise error for bad values. */
export function busConfigFromEnv(env: BusEnv, clientId: string): BusConfig {
  const driver = (env.BUS ?? 'redis') as BusDriverName;
  if (driver === 'redis') {
    if (!env.REDIS_URL) throw new Error('REDIS_URL is required when BUS=redis');
    return { driver, url: env.REDIS_URL, prefix: env.BUS_PREFIX ?? 'vd' };
  }
  if (driver === 'kafka') {
    const brokers = (env.KAFKA_BROKERS ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    if (!brokers.length) throw new Error('KAFKA_BROKERS is required when BUS=kafka (e.g. 127.0.0.1:19092)');
    return { driver, brokers, clientId, topicPrefix: `${env.BUS_PREFIX ?? 'vd'}.` };
  }
  throw new Error(`BUS must be 'redis' or 'kafka', got '${driver}'`);
}
