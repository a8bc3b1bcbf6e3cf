// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { speakableText, StopNoticeBoard, stopNoticesEnabled, stopNoticeTitleKey } from './stopNotice';

describe('stop notices', () => {
  it('titles type 1 as a normal stop, anything else as an abnormal alarm', () => {
    expect(stopNoticeTitleKey({ type: 1 })).toBe('notice.stoppedNormally');
    expect(stopNoticeTitleKey({ type: 2 })).toBe('notice.stoppedAbnormally');
    expect(stopNoticeTitleKey({ type: 0 })).toBe('notice.stoppedAbnormally');
  });

  it('reads the text without dashes', () => {
    expect(speakableText('A-01-2 停止')).toBe('A012 停止');
    expect(speakableText('桩－01—2–3')).toBe('桩0123');
  });

  it('subscribes when a token existed on load, or for tm166 / hefei', () => {
    expect(stopNoticesEnabled(true, undefined)).toBe(true);
    expect(stopNoticesEnabled(false, 'tm166')).toBe(true);
    expect(stopNoticesEnabled(false, 'hefei')).toBe(true);
    expect(stopNoticesEnabled(false, 'fz')).toBe(false);
  });
});

describe('the amount of a stop notice', () => {
  const stop = { type: 1, msg: '充电桩CP-1的1号枪充电正常结束', date: '2026-03-01 08:00:00', key: 'CP-1/7' };

  it('updates the notice of a stop with its amount, speaking only the first time', () => {
    const board = new StopNoticeBoard();
    expect(board.receive(stop)).toEqual({ notice: stop, speak: true });
    expect(board.receive({ ...stop, amountFen: 1234, orderHeld: false })).toEqual({
      notice: { ...stop, amountFen: 1234, orderHeld: false },
      speak: false,
    });
  });

  it('keeps the amount when the notice without it arrives last', () => {
    const board = new StopNoticeBoard();
    board.receive({ ...stop, amountFen: 99, orderHeld: false });
    expect(board.receive(stop)?.notice).toEqual({ ...stop, amountFen: 99, orderHeld: false });
  });

  it('does not reopen a dismissed notice for its amount; other transactions still show', () => {
    const board = new StopNoticeBoard();
    board.receive(stop);
    board.dismiss('CP-1/7');
    expect(board.receive({ ...stop, amountFen: 1 })).toBeUndefined();
    expect(board.receive({ ...stop, key: 'CP-1/8' })?.speak).toBe(true);
  });

  it('shows a notice without a key (an older server) every time', () => {
    const board = new StopNoticeBoard();
    const old = { type: 2, msg: 'x', date: '2026-03-01 08:00:00' };
    expect(board.receive(old)).toEqual({ notice: old, speak: true });
    expect(board.receive(old)).toEqual({ notice: old, speak: true });
  });
});
