/**
 * Every event on the bus travels in this envelope, whichever driver carries it.
 * `key` decides ordering: events with the same key are delivered in publish order
 * (we key by charge point, so each pile's story stays in sequence).
 */
export type EventEnvelope<TPayload = unknown, TType extends string = string> = {
  /** Globally unique id (UUID); consumers use it to ignore redeliveries. */
  eventId: string;
  /** Logical topic, e.g. `ocpp.transactions`. */
  topic: string;
  /** Partition/ordering key, e.g. the chargePointId. */
  key: string;
  /** Event type, e.g. `transaction.stopped`. */
  type: TType;
  /** Payload schema version of `type`. */
  version: number;
  /** ISO-8601 instant at which the fact happened. */
  occurredAt: string;
  /** Correlation id that ties the event to the request or message that caused it. */
  correlationId: string;
  payload: TPayload;
};

/** A dead-lettered event: the original envelope plus why and where it failed. */
export type DeadLetter = {
  envelope: EventEnvelope;
  group: string;
  attempts: number;
  error: string;
  failedAt: string;
};

export const DEAD_LETTER_SUFFIX = '.dlq';

export function deadLetterTopic(topic: string): string {
  return `${topic}${DEAD_LETTER_SUFFIX}`;
}
