// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSpeech, type FakeSpeech } from '../../test/fakeSpeech';
import { SpeechQueue } from './speechQueue';
import { StopNoticeFeed } from './stopNoticeFeed';

const stop = (n: number) => ({
  type: 1,
  msg: `桩CP-${n} 停止`,
  date: '2026-03-01 08:00:00',
  key: `CP-${n}/7`,
});

describe('the stop-notice feed', () => {
  let speech: FakeSpeech;
  let feed: StopNoticeFeed;
  const said = () => speech.spoken.map((utterance) => utterance.text);
  const ids = () => feed.queue.map((queued) => queued.id);

  beforeEach(() => {
    vi.useFakeTimers();
    speech = fakeSpeech();
    feed = new StopNoticeFeed({ speech: new SpeechQueue({ host: speech, maxPending: 3 }), max: 10 });
  });
  afterEach(() => vi.useRealTimers());

  it('tells its listeners the whole queue after each change', () => {
    const seen: string[][] = [];
    feed.subscribe((queue) => seen.push(queue.map((queued) => queued.id)));
    feed.receive(stop(1));
    feed.receive(stop(2));
    feed.dismiss('CP-1/7');
    expect(seen).toEqual([['CP-1/7'], ['CP-1/7', 'CP-2/7'], ['CP-2/7']]);
  });

  it('merges the amount into the notice, speaking it once', () => {
    feed.receive(stop(1));
    feed.receive({ ...stop(1), amountFen: 500, orderHeld: false });
    expect(feed.queue).toEqual([{ id: 'CP-1/7', notice: { ...stop(1), amountFen: 500, orderHeld: false } }]);
    speech.end();
    expect(said()).toEqual(['桩CP1 停止']);
  });

  it('does not reopen a dismissed notice for its amount, nor read it if it had not been read', () => {
    feed.receive(stop(1));
    feed.receive(stop(2));
    feed.dismiss('CP-2/7');
    feed.receive({ ...stop(2), amountFen: 1 });
    expect(ids()).toEqual(['CP-1/7']);
    speech.end();
    expect(said()).toEqual(['桩CP1 停止']);
  });

  it('forgets notices dropped beyond the limit: no speech, no reopening', () => {
    for (let n = 1; n <= 12; n++) feed.receive(stop(n));
    expect(ids()).toHaveLength(10);
    expect(ids()).not.toContain('CP-4/7');
    feed.receive({ ...stop(4), amountFen: 1 });
    expect(ids()).not.toContain('CP-4/7');
  });

  it('shows notices without a key each time, under ids of their own', () => {
    const old = { type: 2, msg: 'x', date: '2026-03-01 08:00:00' };
    feed.receive(old);
    feed.receive(old);
    expect(new Set(ids()).size).toBe(2);
    feed.dismiss(ids()[0] as string);
    expect(feed.queue).toHaveLength(1);
  });

  it('dismiss all empties the queue and reads nothing more', () => {
    for (let n = 1; n <= 4; n++) feed.receive(stop(n));
    feed.dismissAll();
    expect(feed.queue).toEqual([]);
    speech.end();
    expect(said()).toEqual(['桩CP1 停止']);
    feed.receive({ ...stop(3), amountFen: 1 });
    expect(feed.queue).toEqual([]);
  });

  it('dispose stops the speech and tells no one any more', () => {
    const listener = vi.fn();
    feed.subscribe(listener);
    feed.receive(stop(1));
    feed.dispose();
    expect(speech.cancelled).toBe(1);
    feed.receive(stop(2));
    expect(listener).toHaveBeenCalledOnce();
  });
});
