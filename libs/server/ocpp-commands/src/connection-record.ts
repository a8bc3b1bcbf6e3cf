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
