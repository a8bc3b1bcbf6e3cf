import type { StopNotice } from '@voltdepot/shared-contracts';

/** A stop notice waiting or shown, under its id (the transaction key, or a local one without a key). */
export type QueuedNotice = { id: string; notice: StopNotice };

/** How many stop notices are on screen at once; the rest wait behind one summary entry. */
export const SHOWN_AT_ONCE = 3;
/** How many notices are held at most (shown and waiting); beyond it the oldest waiting ones are dropped. */
export const MAX_HELD = 200;

export type NoticeQueueLimits = { shown?: number; max?: number };

/**
 * Adds a notice at the end of the queue, or updates the one with its id in place (its amount came), so a
 * shown notice stays where it is. The queue is first in, first shown: a freed slot goes to the notice that
 * waited longest. Beyond `max` the oldest waiting notices are dropped (never the ones on screen); they are
 * returned so the caller can forget them.
 */
export function enqueueNotice(
  queue: readonly QueuedNotice[],
  entry: QueuedNotice,
  { shown = SHOWN_AT_ONCE, max = MAX_HELD }: NoticeQueueLimits = {},
): { queue: QueuedNotice[]; dropped: QueuedNotice[] } {
  const at = queue.findIndex((queued) => queued.id === entry.id);
  if (at >= 0) return { queue: queue.map((queued, i) => (i === at ? entry : queued)), dropped: [] };
  const next = [...queue, entry];
  const excess = next.length - Math.max(max, shown + 1);
  const dropped = excess > 0 ? next.splice(shown, excess) : [];
  return { queue: next, dropped };
}

/** The queue without the notice of this id (dismissed): the next waiting one moves into its slot. */
export function removeNotice(queue: readonly QueuedNotice[], id: string): QueuedNotice[] {
  return queue.filter((queued) => queued.id !== id);
}

/** The notices on screen and the ones waiting behind the summary. */
export function splitQueue(
  queue: readonly QueuedNotice[],
  shown: number = SHOWN_AT_ONCE,
): { shown: QueuedNotice[]; waiting: QueuedNotice[] } {
  return { shown: queue.slice(0, shown), waiting: queue.slice(shown) };
}
