import type { EventEnvelope } from '@voltdepot/shared-events';

/** How a failing handler is retried before its event is parked in the dead-letter topic. */
export type RetryPolicy = {
  /** Total attempts including the first (>= 1). */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time up to maxDelayMs. */
  initialDelayMs: number;
  maxDelayMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, initialDelayMs: 200, maxDelayMs: 5_000 };

export type DeliveryContext = {
  /** 1 for the first attempt in this process. Redelivery after a crash starts again at 1. */
  attempt: number;
  group: string;
  /** Driver-specific position, for logs only (stream id or partition/offset). */
  position: string;
};

export type EventHandler = (envelope: EventEnvelope, context: DeliveryContext) => Promise<void>;

export type BatchDeliveryContext = DeliveryContext & {
  /** The partition the whole batch comes from (`topic/partition`); a key always maps to one. */
  partition: string;
};

/**
 * Receives several events of one partition at once, in publish order. The batch is acknowledged only
 * when the handler resolved; a batch that fails is delivered again one event at a time (each retried
 * and dead-lettered on its own), so one bad event cannot hold its neighbours back.
 */
export type BatchHandler = (envelopes: EventEnvelope[], context: BatchDeliveryContext) => Promise<void>;

type SubscribeCommon = {
  topics: string[];
  /** Consumer group: every group receives every event; members of one group share them. */
  group: string;
  retry?: Partial<RetryPolicy>;
};

export type SubscribeOptions = SubscribeCommon &
  (
    | { handler: EventHandler; batchHandler?: undefined; maxBatchSize?: undefined }
    | {
        batchHandler: BatchHandler;
        handler?: undefined;
        /** Most events handed over at once (default 100). */
        maxBatchSize?: number;
      }
  );

export type Subscription = {
  readonly group: string;
  /** Stop consuming; in-flight handlers finish and their events are acknowledged first. */
  close(): Promise<void>;
};

/**
 * The one bus API every service uses. Guarantees, whichever driver:
 * - publish() resolves only when the broker has durably accepted every envelope;
 * - events with the same key reach a group's handler in publish order;
 * - at-least-once: an event is acknowledged only after its handler succeeded or it was dead-lettered;
 * - a handler that keeps failing is retried with backoff, then parked in `<topic>.dlq` with the error;
 * - a batch handler gets up to `maxBatchSize` events of one partition at a time, acknowledged together
 *   after it resolved.
 * Handlers must therefore be idempotent (see `idempotent` and `idempotentBatch`).
 */
export interface EventBus {
  readonly driver: BusDriverName;
  publish(envelopes: EventEnvelope | EventEnvelope[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Throws when the broker is unreachable; used by /health. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type BusDriverName = 'redis' | 'kafka';
