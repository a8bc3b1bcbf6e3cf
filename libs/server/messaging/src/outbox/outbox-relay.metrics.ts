import { Counter, Gauge, type Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

const PREFIX = 'voltdepot_outbox_';

/** What the relay of this process did, on the service's /metrics. */
export type OutboxRelayMetrics = {
  published(count: number): void;
  failed(): void;
};

/**
 * `voltdepot_outbox_published_total` and `voltdepot_outbox_relay_errors_total` count this process's
 * relay (with several processes only the one holding the lock publishes);
 * `voltdepot_outbox_backlog` counts the unpublished rows at scrape time, whoever is to publish them.
 */
export function outboxRelayMetrics(
  registry: Registry,
  dataSource: DataSource,
  onCollectError: (error: unknown) => void,
): OutboxRelayMetrics {
  const registers = [registry];
  const published = new Counter({
    name: `${PREFIX}published_total`,
    help: 'Outbox events this process published on the bus',
    registers,
  });
  const errors = new Counter({
    name: `${PREFIX}relay_errors_total`,
    help: 'Failed outbox relay rounds in this process (the rows stay for the next round)',
    registers,
  });
  new Gauge({
    name: `${PREFIX}backlog`,
    help: 'Events written to the outbox and not yet published on the bus',
    registers,
    async collect() {
      if (!dataSource.isInitialized) return;
      try {
        const [{ n }]: { n: number }[] = await dataSource.query(
          'SELECT count(*)::int AS n FROM outbox_event WHERE published_at IS NULL',
        );
        this.set(n);
      } catch (error) {
        onCollectError(error); // keep the last value: a scrape must not fail because the database is slow
      }
    },
  });
  return { published: (count) => published.inc(count), failed: () => errors.inc() };
}
