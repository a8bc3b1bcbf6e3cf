import type { EventBus, SubscribeOptions, Subscription } from './bus';
import { checkSubscribeOptions, describeError } from './delivery';

export type ConsumerStartOptions = {
  /** Wait before the second attempt (ms, default 500); doubles up to `maxDelayMs`. */
  initialDelayMs?: number;
  /** Longest wait between attempts (ms, default 5,000). */
  maxDelayMs?: number;
  /** Called after each failed attempt, before waiting `delayMs` (for a warning in the log). */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
};

/** A consumer that subscribes in the background until the bus answers; see `startConsumer`. */
export class StartingConsumer implements Subscription {
  readonly group: string;
  /** Resolves once subscribed, or when closed before that; never rejects. */
  readonly started: Promise<void>;
  private subscription?: Subscription;
  private closed = false;
  private wake?: () => void;
  private failures = 0;
  private lastError?: string;

  constructor(
    private readonly bus: EventBus,
    private readonly options: SubscribeOptions,
    private readonly start: ConsumerStartOptions = {},
  ) {
    checkSubscribeOptions(options); // a mistake in the options is not worth retrying
    this.group = options.group;
    this.started = this.subscribeUntilReady();
  }

  /** True once the subscription is established (and not closed). */
  get running(): boolean {
    return !!this.subscription && !this.closed;
  }

  /** Failed attempts so far and the last error, for health and logs. */
  get attempts(): { failures: number; lastError?: string } {
    return { failures: this.failures, lastError: this.lastError };
  }

  private async subscribeUntilReady(): Promise<void> {
    const initial = this.start.initialDelayMs ?? 500;
    const max = this.start.maxDelayMs ?? 5_000;
    while (!this.closed) {
      try {
        const subscription = await this.bus.subscribe(this.options);
        if (this.closed) {
          await subscription.close(); // closed while subscribing: do not leave it running
          return;
        }
        this.subscription = subscription;
        return;
      } catch (error) {
        if (this.closed) return;
        this.failures++;
        this.lastError = describeError(error);
        const delay = Math.min(max, initial * 2 ** (this.failures - 1));
        this.start.onRetry?.(error, this.failures, delay);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  /** Stop retrying; close the subscription if it was established (in-flight events finish first). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    await this.started;
    await this.subscription?.close();
  }
}

/**
 * Start a consumer without waiting for the broker: subscribes in the background and, while the bus is
 * not reachable yet (a service started before Redis or Kafka, or during their restart), tries again
 * with exponential backoff. The service keeps serving meanwhile and /health shows the bus as down.
 * Use it for every long-lived consumer; `bus.subscribe` itself fails at once.
 */
export function startConsumer(
  bus: EventBus,
  options: SubscribeOptions,
  start?: ConsumerStartOptions,
): StartingConsumer {
  return new StartingConsumer(bus, options, start);
}
