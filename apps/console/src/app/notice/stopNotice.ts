import type { StopNotice } from '@voltdepot/shared-contracts';

/** Type 1 is a normal stop; anything else an abnormal-stop alarm (spec §2 "Realtime stop notices"). */
export function stopNoticeTitleKey(notice: Pick<StopNotice, 'type'>) {
  return Number(notice.type) === 1
    ? ('notice.stoppedNormally' as const)
    : ('notice.stoppedAbnormally' as const);
}

/** What is read aloud: the message without dashes. */
export function speakableText(msg: string): string {
  return msg.replace(/[-－—–]/g, '');
}

type SpeechHost = {
  speechSynthesis?: Pick<SpeechSynthesis, 'speak'>;
  SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance;
};

/** Speaks the text in Chinese when the browser can; returns whether it did. */
export function speakChinese(msg: string, host: SpeechHost = globalThis as SpeechHost): boolean {
  const text = speakableText(msg).trim();
  if (!text || !host.speechSynthesis || !host.SpeechSynthesisUtterance) return false;
  const utterance = new host.SpeechSynthesisUtterance(text);
  utterance.lang = 'zh-CN';
  host.speechSynthesis.speak(utterance);
  return true;
}

/**
 * Spec §4: the stop-notice subscription starts when an access token existed on load, or after signing in
 * when the city code is tm166 or hefei.
 */
export function stopNoticesEnabled(hadTokenOnLoad: boolean, cityCode: string | null | undefined): boolean {
  return hadTokenOnLoad || cityCode === 'tm166' || cityCode === 'hefei';
}
