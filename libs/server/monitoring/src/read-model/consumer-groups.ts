import type Redis from 'ioredis';
import { KafkaBus, RedisStreamsBus, type EventBus } from '@voltdepot/server-messaging';

/**
 * Deletes a consumer group nobody uses any more (a read model's previous generation). The bus API has no
 * such call yet, so this speaks to each driver through what it exposes: a Redis Streams group left
 * behind would hold every stream's trimming back for ever; an idle Kafka group would only keep its
 * committed offsets until they expire, and is deleted too for tidiness.
 */
export async function deleteConsumerGroup(
  bus: EventBus,
  redis: Redis,
  group: string,
  topics: string[],
  options: { attempts: number; retryDelayMs: number } = { attempts: 6, retryDelayMs: 5_000 },
): Promise<void> {
  if (bus instanceof RedisStreamsBus) {
    for (const topic of topics) {
      // A topic's streams are numbered from 0 and all created by the first subscriber.
      for (let partition = 0; partition < 1024; partition++) {
        const stream = bus.streamKey(topic, partition);
        if (!(await redis.exists(stream))) break;
        // Returns 0 when another replica destroyed it first; that is the outcome wanted.
        await redis.xgroup('DESTROY', stream, group);
      }
    }
    return;
  }
  if (bus instanceof KafkaBus) {
    const admin = bus.client.admin();
    await admin.connect();
    try {
      const groupId = `${bus.topicName('')}${group}`;
      for (let attempt = 1; ; attempt++) {
        const outcome = await admin.deleteGroups([groupId]).then(
          () => 'deleted' as const,
          (error: unknown) => kafkaDeleteOutcome(error),
        );
        if (outcome === 'deleted' || outcome === 'gone') return;
        // Members of the old generation are still leaving (every replica deletes it once it has moved on).
        if (outcome !== 'busy') throw outcome;
        if (attempt >= options.attempts) {
          throw new Error(`consumer group ${groupId} still has members after ${attempt} attempts`);
        }
        await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs));
      }
    } finally {
      await admin.disconnect();
    }
  }
}

/** Sorts a failed DeleteGroups: already gone (another replica was first), still in use, or a real error. */
function kafkaDeleteOutcome(error: unknown): 'gone' | 'busy' | unknown {
  const groups = (error as { groups?: { error?: { type?: string } }[] }).groups;
  if (!Array.isArray(groups) || groups.length === 0) return error;
  const types = groups.map((g) => g.error?.type);
  if (types.every((t) => t === 'GROUP_ID_NOT_FOUND')) return 'gone';
  if (types.every((t) => t === 'GROUP_ID_NOT_FOUND' || t === 'NON_EMPTY_GROUP')) return 'busy';
  return error;
}
