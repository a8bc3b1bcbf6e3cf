/**
 * Redis names of the OCPP gateway's cross-replica command protocol. `prefix` is the gateway's
 * OCPP_REDIS_PREFIX (default `vd`); every process taking part (gateway replicas, the api) must use the same.
 */

/** The channel a gateway replica listens on for commands to the piles it holds. */
export function commandChannel(prefix: string, replicaId: string): string {
  return `${prefix}:ocpp:cmd:${replicaId}`;
}

/** The channel a sender (a gateway replica or another process) receives its answers on. */
export function replyChannel(prefix: string, senderId: string): string {
  return `${prefix}:ocpp:cmd-reply:${senderId}`;
}

/** The hash recording which replica holds a pile's connection (written by the gateway's SessionRegistry). */
export function connectionKey(prefix: string, chargePointId: string): string {
  return `${prefix}:ocpp:conn:${chargePointId}`;
}
