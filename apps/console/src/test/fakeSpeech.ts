import type { SpeechHost } from '../app/notice/speechQueue';

export type FakeUtterance = {
  text: string;
  lang: string;
  onend: (() => void) | null;
  onerror: (() => void) | null;
};

/** A speechSynthesis that records what it was asked to say; a test ends or fails each utterance. */
export type FakeSpeech = SpeechHost & {
  /** Every utterance passed to speak(), in order. */
  spoken: FakeUtterance[];
  cancelled: number;
  /** Ends the utterance last spoken (its `end` event). */
  end(): void;
  /** Fails the utterance last spoken (its `error` event). */
  fail(): void;
};

export function fakeSpeech(): FakeSpeech {
  class Utterance implements FakeUtterance {
    lang = '';
    onend: (() => void) | null = null;
    onerror: (() => void) | null = null;
    constructor(public text: string) {}
  }
  const fake: FakeSpeech = {
    spoken: [],
    cancelled: 0,
    speechSynthesis: {
      speak: (utterance) => void fake.spoken.push(utterance as unknown as FakeUtterance),
      cancel: () => void fake.cancelled++,
    },
    SpeechSynthesisUtterance: Utterance as unknown as typeof SpeechSynthesisUtterance,
    end: () => fake.spoken.at(-1)?.onend?.(),
    fail: () => fake.spoken.at(-1)?.onerror?.(),
  };
  return fake;
}

/** Installs the fake as the page's speechSynthesis; returns the fake and the undo. */
export function installFakeSpeech(): { speech: FakeSpeech; restore: () => void } {
  const speech = fakeSpeech();
  const target = globalThis as Record<string, unknown>;
  const before = { speechSynthesis: target.speechSynthesis, Utterance: target.SpeechSynthesisUtterance };
  target.speechSynthesis = speech.speechSynthesis;
  target.SpeechSynthesisUtterance = speech.SpeechSynthesisUtterance;
  return {
    speech,
    restore: () => {
      target.speechSynthesis = before.speechSynthesis;
      target.SpeechSynthesisUtterance = before.Utterance;
    },
  };
}
