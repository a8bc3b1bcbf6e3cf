/** Shared by the benchmarks: the event bus of a driver, configured as the benchmarks use it. */
import { KafkaBus, RedisStreamsBus, type EventBus } from '@voltdepot/server-messaging';

export type Driver = 'redis' | 'kafka';

export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
export const KAFKA_BROKERS = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');

/** A bus of the driver, as the benchmarks configure it (Redis: `partitions` streams per topic). */
export function makeBus(
  driver: Driver,
  options: { prefix: string; partitions: number; kafkaConcurrency: number; clientId: string },
): EventBus {
  if (driver === 'redis')
    return new RedisStreamsBus({
      url: REDIS_URL,
      prefix: options.prefix,
      partitions: options.partitions,
      trimIntervalMs: 0,
    });
  if (driver === 'kafka')
    return new KafkaBus({
      brokers: KAFKA_BROKERS,
      topicPrefix: `${options.prefix}.`,
      clientId: options.clientId,
      partitionsConsumedConcurrently: options.kafkaConcurrency,
    });
  throw new Error(`unknown driver ${String(driver)}`);
}
