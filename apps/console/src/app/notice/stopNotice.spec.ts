// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { speakableText, speakChinese, stopNoticesEnabled, stopNoticeTitleKey } from './stopNotice';

describe('stop notices', () => {
  it('titles type 1 as a normal stop, anything else as an abnormal alarm', () => {
    expect(stopNoticeTitleKey({ type: 1 })).toBe('notice.stoppedNormally');
    expect(stopNoticeTitleKey({ type: 2 })).toBe('notice.stoppedAbnormally');
    expect(stopNoticeTitleKey({ type: 0 })).toBe('notice.stoppedAbnormally');
  });

  it('speaks the text in Chinese without dashes', () => {
    expect(speakableText('A-01-2 停止')).toBe('A012 停止');
    const speak = vi.fn();
    class Utterance {
      lang = '';
      constructor(public text: string) {}
    }
    const host = { speechSynthesis: { speak }, SpeechSynthesisUtterance: Utterance as never };
    expect(speakChinese('桩-01 充电停止', host)).toBe(true);
    expect(speak).toHaveBeenCalledOnce();
    expect(speak.mock.calls[0]?.[0]).toMatchObject({ text: '桩01 充电停止', lang: 'zh-CN' });
  });

  it('does nothing without speech synthesis', () => {
    expect(speakChinese('x', {})).toBe(false);
  });

  it('subscribes when a token existed on load, or for tm166 / hefei', () => {
    expect(stopNoticesEnabled(true, undefined)).toBe(true);
    expect(stopNoticesEnabled(false, 'tm166')).toBe(true);
    expect(stopNoticesEnabled(false, 'hefei')).toBe(true);
    expect(stopNoticesEnabled(false, 'fz')).toBe(false);
  });
});
