import { randomUUID } from 'node:crypto';
import {
  Kafka,
  logLevel,
  type Admin,
  type Consumer,
  type EachBatchPayload,
  type KafkaMessage,
  type Producer,
} from 'kafkajs';
import { deadLetterTopic, type DeadLetter, type EventEnvelope } from '@voltdepot/shared-events';
import type { BatchHandler, EventBus, SubscribeOptions, Subscription } from '../bus';
import { createEnvelope, parseEnvelope, serializeEnvelope } from '../envelope.factory';
import {
  checkSubscribeOptions,
  DeliveryAborted,
  deliver,
  deliverBatch,
  resolveBatchSize,
  resolveRetryPolicy,
} from '../delivery';
import { DeadLetterEvent } from '../dead-letter.event';

export type KafkaBusOptions = {
  brokers: string[];
  clientId?: string;
  /** Prefix for topic names, so test runs and deployments can share a cluster. */
  topicPrefix?: string;
  /** Partitions of topics this bus creates. */
  partitions?: number;
  replicationFactor?: number;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** Partitions a consumer handles at the same time (default 8, the partitions of a topic). */
  partitionsConsumedConcurrently?: number;
  onError?: (error: unknown, context: string) => void;
};

/**
 * Kafka driver. One long-lived idempotent producer per bus (acks=all, one request in flight, so a
 * retried send can neither duplicate nor reorder). Consumers resolve an offset only after its handler
 * succeeded or the event was dead-lettered, so a commit never covers unprocessed events.
 */
export class KafkaBus implements EventBus {
  readonly driver = 'kafka' as const;
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly prefix: string;
  private readonly ensuredTopics = new Set<string>();
  private readonly subscriptions = new Set<KafkaSubscription>();
  private connecting?: Promise<void>;
  private closed = false;

  constructor(private readonly options: KafkaBusOptions) {
    if (!options.brokers.length) throw new Error('kafka: at least one broker is required');
    this.prefix = options.topicPrefix ?? '';
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'voltdepot',
      brokers: options.brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 8, initialRetryTime: 100, maxRetryTime: 5_000 },
    });
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
    this.admin = this.kafka.admin();
  }

  get client(): Kafka {
    return this.kafka;
  }

  topicName(topic: string): string {
    return `${this.prefix}${topic}`;
  }

  private connect(): Promise<void> {
    this.connecting ??= Promise.all([this.producer.connect(), this.admin.connect()]).then(() => undefined);
    return this.connecting;
  }

  /** Create topics we use (idempotent); partitions decide how far a group can scale out. */
  async ensureTopics(topics: string[]): Promise<void> {
    const missing = topics.map((t) => this.topicName(t)).filter((t) => !this.ensuredTopics.has(t));
    if (!missing.length) return;
    await this.connect();
    await this.admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: this.options.partitions ?? 8,
        replicationFactor: this.options.replicationFactor ?? 1,
      })),
    });
    // createTopics returns false for topics that already exist; either way they exist now.
    await waitForTopicMetadata(this.admin, missing);
    missing.forEach((t) => this.ensuredTopics.add(t));
  }

  async publish(envelopes: EventEnvelope | EventEnvelope[]): Promise<void> {
    const list = Array.isArray(envelopes) ? envelopes : [envelopes];
    if (!list.length) return;
    if (this.closed) throw new Error('bus is closed');
    await this.connect();
    const byTopic = new Map<string, EventEnvelope[]>();
    for (const envelope of list) {
      byTopic.set(envelope.topic, [...(byTopic.get(envelope.topic) ?? []), envelope]);
    }
    await this.ensureTopics([...byTopic.keys()]);
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, items]) => ({
        topic: this.topicName(topic),
        messages: items.map((e) => ({
          key: e.key,
          value: serializeEnvelope(e),
          headers: { 'event-id': e.eventId, 'event-type': e.type, 'correlation-id': e.correlationId },
        })),
      })),
    });
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus is closed');
    checkSubscribeOptions(options);
    await this.ensureTopics(options.topics);
    const consumer = this.kafka.consumer({
      groupId: `${this.prefix}${options.group}`,
      sessionTimeout: this.options.sessionTimeoutMs ?? 10_000,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 1_000,
      rebalanceTimeout: 30_000,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 200,
    });
    const subscription = new KafkaSubscription(this, consumer, options, this.options, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (error) {
      await subscription.close().catch(() => undefined); // leave no half-joined consumer behind
      throw error;
    }
    return subscription;
  }

  async publishDeadLetter(letter: DeadLetter): Promise<void> {
    await this.publish(
      createEnvelope(
        { ...DeadLetterEvent, topic: deadLetterTopic(letter.envelope.topic) },
        letter.envelope.key,
        letter,
        { correlationId: letter.envelope.correlationId },
      ),
    );
  }

  async ping(): Promise<void> {
    await this.connect();
    await this.admin.describeCluster();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }
}

async function waitForTopicMetadata(admin: Admin, topics: string[]): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await admin.fetchTopicMetadata({ topics });
      return;
    } catch (error) {
      if (i >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

class KafkaSubscription implements Subscription {
  readonly group: string;
  private readonly retry;
  private stopping = false;

  constructor(
    private readonly bus: KafkaBus,
    private readonly consumer: Consumer,
    private readonly options: SubscribeOptions,
    private readonly busOptions: KafkaBusOptions,
    private readonly onClosed: () => void,
  ) {
    this.group = options.group;
    this.retry = resolveRetryPolicy(options.retry);
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({
      topics: this.options.topics.map((t) => this.bus.topicName(t)),
      fromBeginning: true,
    });
    await this.consumer.run({
      autoCommit: true,
      autoCommitInterval: 500,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.busOptions.partitionsConsumedConcurrently ?? 8,
      eachBatch: (payload) => this.processBatch(payload),
    });
  }

  private async processBatch(payload: EachBatchPayload): Promise<void> {
    const options = this.options;
    if (options.batchHandler) {
      return this.processInBatches(payload, options.batchHandler, resolveBatchSize(options.maxBatchSize));
    }
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
    for (const message of batch.messages) {
      // Stop at a rebalance or shutdown: the rest of the batch goes to whoever owns the partition next.
      if (!isRunning() || isStale() || this.stopping) break;
      const position = `${batch.topic}/${batch.partition}@${message.offset}`;
      let envelope: EventEnvelope;
      try {
        envelope = parseEnvelope(message.value ?? '');
      } catch (error) {
        await this.deadLetterMalformed(batch.topic, message, position, error);
        resolveOffset(message.offset);
        continue;
      }
      try {
        await deliver(envelope, options.handler, this.group, position, this.retry, {
          deadLetter: (letter) => this.bus.publishDeadLetter(letter),
          isStopping: () => this.stopping || !isRunning() || isStale(),
          onError: (error, _e, attempt) =>
            this.busOptions.onError?.(error, `handler ${this.group} attempt ${attempt}`),
        });
      } catch (error) {
        if (error instanceof DeliveryAborted) break;
        throw error; // dead-lettering failed: leave unresolved so the event is consumed again
      }
      resolveOffset(message.offset);
      await heartbeat();
    }
    await commitOffsetsIfNecessary();
  }

  /**
   * The fetched messages of one partition go to the batch handler in chunks of `size`. A chunk's offsets
   * are resolved (and so committed) only after the handler resolved, i.e. after its transaction
   * committed; offsets are positional, so an early stop resolves only up to the first unhandled event.
   */
  private async processInBatches(
    { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }: EachBatchPayload,
    handler: BatchHandler,
    size: number,
  ): Promise<void> {
    const stopping = () => this.stopping || !isRunning() || isStale();
    const partition = `${this.unprefixed(batch.topic)}/${batch.partition}`;
    for (let start = 0; start < batch.messages.length; start += size) {
      if (stopping()) break;
      const chunk = batch.messages.slice(start, start + size);
      const valid: { index: number; envelope: EventEnvelope; position: string }[] = [];
      for (const [index, message] of chunk.entries()) {
        const position = `${batch.topic}/${batch.partition}@${message.offset}`;
        try {
          valid.push({ index, envelope: parseEnvelope(message.value ?? ''), position });
        } catch (error) {
          await this.deadLetterMalformed(batch.topic, message, position, error);
        }
      }
      const outcome = await deliverBatch(
        valid.map((v) => v.envelope),
        handler,
        { group: this.group, partition, positions: valid.map((v) => v.position) },
        this.retry,
        {
          deadLetter: (letter) => this.bus.publishDeadLetter(letter),
          isStopping: stopping,
          onError: (error, _e, attempt) =>
            this.busOptions.onError?.(error, `handler ${this.group} attempt ${attempt}`),
          onBatchError: (error, count) =>
            this.busOptions.onError?.(error, `batch handler ${this.group} (${count} events, now one by one)`),
        },
      );
      const firstLeft = valid[outcome.acknowledged]?.index ?? chunk.length;
      if (firstLeft > 0) resolveOffset(chunk[firstLeft - 1].offset);
      await heartbeat();
      await commitOffsetsIfNecessary();
      if (outcome.error) throw outcome.error; // dead-lettering failed: consume the rest again
      if (firstLeft < chunk.length) break;
    }
  }

  private async deadLetterMalformed(
    topic: string,
    message: KafkaMessage,
    position: string,
    error: unknown,
  ): Promise<void> {
    await this.bus.publishDeadLetter({
      envelope: {
        eventId: `malformed:${position}`,
        topic: this.unprefixed(topic),
        key: message.key?.toString() ?? position,
        type: 'malformed',
        version: 0,
        occurredAt: new Date().toISOString(),
        correlationId: randomUUID(),
        payload: { raw: message.value?.toString() ?? null },
      },
      group: this.group,
      attempts: 0,
      error: (error as Error).message,
      failedAt: new Date().toISOString(),
    });
  }

  private unprefixed(topic: string): string {
    const prefixed = this.bus.topicName('');
    return prefixed && topic.startsWith(prefixed) ? topic.slice(prefixed.length) : topic;
  }

  async close(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    try {
      // disconnect() waits for the running batch, commits resolved offsets and leaves the group.
      await this.consumer.disconnect();
    } finally {
      this.onClosed();
    }
  }
}
