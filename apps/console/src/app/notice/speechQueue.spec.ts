// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSpeech, type FakeSpeech } from '../../test/fakeSpeech';
import { SpeechQueue, speechTimeoutMs } from './speechQueue';

describe('reading stop notices aloud', () => {
  let speech: FakeSpeech;
  let queue: SpeechQueue;
  const said = () => speech.spoken.map((utterance) => utterance.text);

  beforeEach(() => {
    vi.useFakeTimers();
    speech = fakeSpeech();
    queue = new SpeechQueue({ host: speech, timers: globalThis, maxPending: 3 });
  });
  afterEach(() => vi.useRealTimers());

  it('speaks in Chinese without dashes', () => {
    expect(queue.enqueue('a', '桩-01 充电停止')).toBe(true);
    expect(speech.spoken[0]).toMatchObject({ text: '桩01 充电停止', lang: 'zh-CN' });
  });

  it('speaks one at a time: the next starts when the previous ends or fails', () => {
    queue.enqueue('a', 'one');
    queue.enqueue('b', 'two');
    queue.enqueue('c', 'three');
    expect(said()).toEqual(['one']);
    speech.end();
    expect(said()).toEqual(['one', 'two']);
    speech.fail();
    expect(said()).toEqual(['one', 'two', 'three']);
    speech.end();
    expect(queue.speaking).toBeUndefined();
    // A late second event of a finished utterance does not start anything.
    speech.spoken[0]?.onend?.();
    queue.enqueue('d', 'four');
    expect(said()).toEqual(['one', 'two', 'three', 'four']);
  });

  it('moves on after a time-out when the browser never ends an utterance', () => {
    queue.enqueue('a', 'one');
    queue.enqueue('b', 'two');
    vi.advanceTimersByTime(speechTimeoutMs('one') - 1);
    expect(said()).toEqual(['one']);
    vi.advanceTimersByTime(1);
    expect(said()).toEqual(['one', 'two']);
    // The time-out of an utterance that ended is cleared.
    speech.end();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('skips a notice dismissed before its turn', () => {
    queue.enqueue('a', 'one');
    queue.enqueue('b', 'two');
    queue.enqueue('c', 'three');
    queue.skip('b');
    speech.end();
    expect(said()).toEqual(['one', 'three']);
  });

  it('keeps at most a few waiting: older ones are dropped unspoken', () => {
    for (const n of [1, 2, 3, 4, 5, 6]) queue.enqueue(`n${n}`, `m${n}`);
    expect(queue.waiting).toEqual(['n4', 'n5', 'n6']);
    for (let i = 0; i < 4; i++) speech.end();
    expect(said()).toEqual(['m1', 'm4', 'm5', 'm6']);
  });

  it('clear drops the waiting ones and stops the current one', () => {
    queue.enqueue('a', 'one');
    queue.enqueue('b', 'two');
    queue.clear();
    expect(speech.cancelled).toBe(1);
    speech.fail(); // the cancelled utterance's error event
    expect(said()).toEqual(['one']);
    queue.enqueue('c', 'three');
    expect(said()).toEqual(['one', 'three']);
  });

  it('says nothing without speech synthesis or without text', () => {
    expect(new SpeechQueue({ host: {} }).enqueue('a', 'x')).toBe(false);
    expect(queue.enqueue('a', ' - ')).toBe(false);
    expect(speech.spoken).toEqual([]);
  });

  it('goes on when speak throws', () => {
    speech.speechSynthesis!.speak = vi.fn().mockImplementationOnce(() => {
      throw new Error('not allowed');
    });
    queue.enqueue('a', 'one');
    queue.enqueue('b', 'two');
    expect(speech.speechSynthesis!.speak).toHaveBeenCalledTimes(2);
  });
});
