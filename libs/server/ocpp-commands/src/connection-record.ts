import type Redis from 'ioredis';
import { connectionKey } from './command-channels';

/** Where a pile is connected: the hash at `connectionKey(prefix, chargePointId)`. */
export type ConnectionRecord = {
  replicaId: string;
  sessionId: string;
  connectedAt: string;
  lastSeenAt: string;
};

/** The record in a connection hash as Redis returns it (HGETALL); undefined when it is missing or partial. */
export function connectionRecordOf(hash: Record<string, string>): ConnectionRecord | undefined {
  const { replicaId, sessionId, connectedAt, lastSeenAt } = hash;
  if (!replicaId || !sessionId || !connectedAt) return undefined;
  return { replicaId, sessionId, connectedAt, lastSeenAt: lastSeenAt ?? connectedAt };
}

/** The pile's connection record, if it is connected to a gateway replica. */
export async function lookupConnection(
  redis: Redis,
  prefix: string,
  chargePointId: string,
): Promise<ConnectionRecord | undefined> {
  return connectionRecordOf(await redis.hgetall(connectionKey(prefix, chargePointId)));
}

/**
 * When each of these piles was last heard from on its live connection (every call it makes, heartbeats
 * included, refreshes the record), in one round trip; piles not connected are absent.
 */
export async function lastSeenOf(
  redis: Redis,
  prefix: string,
  chargePointIds: readonly string[],
): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  if (!chargePointIds.length) return seen;
  const pipeline = redis.pipeline();
  for (const id of chargePointIds) pipeline.hget(connectionKey(prefix, id), 'lastSeenAt');
  const answers = (await pipeline.exec()) ?? [];
  answers.forEach(([error, value], i) => {
    if (!error && typeof value === 'string' && value) seen.set(chargePointIds[i], value);
  });
  return seen;
}
