/** BullMQ settings shared by the producer (dispatcher) and the worker. */
export type MsgQueueOptions = {
  redisUrl: string;
  prefix: string;
  attempts: number;
  backoffMs: number;
  lockMs: number;
  concurrency: number;
};
export const MSG_QUEUE_OPTIONS = Symbol('MSG_QUEUE_OPTIONS');
