// @vitest-environment node
import type { StopNotice } from '@voltdepot/shared-contracts';
import { describe, expect, it } from 'vitest';
import { enqueueNotice, removeNotice, SHOWN_AT_ONCE, splitQueue, type QueuedNotice } from './stopNoticeQueue';

const notice = (n: number, extra: Partial<StopNotice> = {}): QueuedNotice => ({
  id: `CP-1/${n}`,
  notice: { type: 1, msg: `stop ${n}`, date: '2026-03-01 08:00:00', key: `CP-1/${n}`, ...extra },
});

function fill(count: number, limits?: Parameters<typeof enqueueNotice>[2]) {
  let queue: QueuedNotice[] = [];
  const dropped: QueuedNotice[] = [];
  for (let n = 1; n <= count; n++) {
    const result = enqueueNotice(queue, notice(n), limits);
    queue = result.queue;
    dropped.push(...result.dropped);
  }
  return { queue, dropped };
}

const ids = (list: readonly QueuedNotice[]) => list.map((queued) => queued.id);

describe('the stop-notice queue', () => {
  it('shows three at once and keeps the rest waiting, in arrival order', () => {
    expect(SHOWN_AT_ONCE).toBe(3);
    const { shown, waiting } = splitQueue(fill(60).queue);
    expect(ids(shown)).toEqual(['CP-1/1', 'CP-1/2', 'CP-1/3']);
    expect(waiting).toHaveLength(57);
    expect(waiting[0]?.id).toBe('CP-1/4');
  });

  it('gives a freed slot to the notice that waited longest', () => {
    const queue = removeNotice(fill(5).queue, 'CP-1/2');
    const { shown, waiting } = splitQueue(queue);
    expect(ids(shown)).toEqual(['CP-1/1', 'CP-1/3', 'CP-1/4']);
    expect(ids(waiting)).toEqual(['CP-1/5']);
  });

  it('updates a notice in place when its amount comes, shown or waiting', () => {
    const { queue } = fill(5);
    const shownUpdate = enqueueNotice(queue, notice(2, { amountFen: 100 }));
    expect(ids(shownUpdate.queue)).toEqual(ids(queue));
    expect(shownUpdate.queue[1]?.notice.amountFen).toBe(100);
    const waitingUpdate = enqueueNotice(queue, notice(5, { amountFen: 7 }));
    expect(ids(waitingUpdate.queue)).toEqual(ids(queue));
    expect(waitingUpdate.queue[4]?.notice.amountFen).toBe(7);
  });

  it('drops the oldest waiting notices beyond the limit, never the shown ones', () => {
    const { queue, dropped } = fill(12, { max: 10 });
    expect(queue).toHaveLength(10);
    expect(ids(splitQueue(queue).shown)).toEqual(['CP-1/1', 'CP-1/2', 'CP-1/3']);
    expect(ids(dropped)).toEqual(['CP-1/4', 'CP-1/5']);
    expect(queue.at(-1)?.id).toBe('CP-1/12');
  });
});
