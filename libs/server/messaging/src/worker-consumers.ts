import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventBus, SubscribeOptions } from './bus';
import { startConsumer, type StartingConsumer } from './start-consumer';

/**
 * The long-lived consumers of a worker module, as a Nest provider: once the application has started,
 * each subscription is started with `startConsumer` (in the background, retried while the bus is
 * unreachable, every failed attempt a warning), and all are closed on shutdown. A module's provider
 * extends it and says only which subscriptions it starts:
 *
 * ```ts
 * @Injectable()
 * class LedgerConsumers extends WorkerConsumers {
 *   constructor(@Inject(EVENT_BUS) bus: EventBus, @Inject(LedgerService) private readonly ledger: LedgerService) {
 *     super(bus, new Logger('LedgerConsumers'));
 *   }
 *   protected subscriptions() { return [consumptionSubscription(new ConsumptionService(this.ledger))]; }
 * }
 * ```
 */
export abstract class WorkerConsumers implements OnApplicationBootstrap, OnApplicationShutdown {
  private consumers: StartingConsumer[] = [];

  protected constructor(
    private readonly bus: EventBus,
    protected readonly logger: { warn(message: string): void },
  ) {}

  /** The subscriptions to start (called once, when the application has started). */
  protected abstract subscriptions(): SubscribeOptions[];

  /** The started consumers (for health and tests). */
  get started(): readonly StartingConsumer[] {
    return this.consumers;
  }

  onApplicationBootstrap(): void {
    this.consumers = this.subscriptions().map((options) =>
      startConsumer(this.bus, options, {
        onRetry: (error, attempt, delayMs) =>
          this.logger.warn(
            `${options.group} consumer not started (attempt ${attempt}, next in ${delayMs} ms): ${(error as Error).message}`,
          ),
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.close()));
  }
}
