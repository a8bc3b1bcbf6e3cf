import { speakableText } from './stopNotice';

export type SpeechHost = {
  speechSynthesis?: Pick<SpeechSynthesis, 'speak' | 'cancel'>;
  SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance;
};

type Timers = {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: never) => void;
};

/** Utterances waiting at most; older ones are dropped unspoken (a flood is not read out for minutes). */
export const MAX_PENDING_SPEECH = 3;

/**
 * How long an utterance may take before the next one starts anyway: some browsers never fire `end` (or
 * `error`) for an utterance, which would stop the queue for good. Generous, Chinese is read at about
 * four characters a second.
 */
export function speechTimeoutMs(text: string): number {
  return Math.min(60_000, 5_000 + 500 * text.length);
}

export type SpeechQueueOptions = {
  host?: SpeechHost;
  timers?: Timers;
  maxPending?: number;
};

type Current = { id: string; timer: unknown; utterance: SpeechSynthesisUtterance };

/**
 * Reads notices aloud in Chinese (dashes removed) one at a time: the next utterance starts when the
 * previous one ends or fails, or after a safety time-out. At most `maxPending` wait; a notice skipped
 * (dismissed) before its turn is not read.
 */
export class SpeechQueue {
  private readonly host: SpeechHost;
  private readonly timers: Timers;
  private readonly maxPending: number;
  private pending: { id: string; text: string }[] = [];
  private current: Current | undefined;

  constructor({
    host = globalThis as SpeechHost,
    timers = globalThis as unknown as Timers,
    maxPending = MAX_PENDING_SPEECH,
  }: SpeechQueueOptions = {}) {
    this.host = host;
    this.timers = timers;
    this.maxPending = maxPending;
  }

  /** Queues the message; false when there is nothing to say or the browser cannot speak. */
  enqueue(id: string, msg: string): boolean {
    const text = speakableText(msg).trim();
    if (!text || !this.host.speechSynthesis || !this.host.SpeechSynthesisUtterance) return false;
    this.pending.push({ id, text });
    if (this.pending.length > this.maxPending) this.pending.splice(0, this.pending.length - this.maxPending);
    this.next();
    return true;
  }

  /** The notice is not read if it has not started yet. */
  skip(id: string): void {
    this.pending = this.pending.filter((item) => item.id !== id);
  }

  /** Drops what waits and stops what is being read (signed out). */
  clear(): void {
    this.pending = [];
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    this.timers.clearTimeout(current.timer as never);
    this.host.speechSynthesis?.cancel();
  }

  /** Ids waiting to be read, in order (for tests and diagnostics). */
  get waiting(): string[] {
    return this.pending.map((item) => item.id);
  }

  /** The id being read, if any. */
  get speaking(): string | undefined {
    return this.current?.id;
  }

  private next(): void {
    if (this.current) return;
    const item = this.pending.shift();
    const { speechSynthesis, SpeechSynthesisUtterance: Utterance } = this.host;
    if (!item || !speechSynthesis || !Utterance) return;
    const utterance = new Utterance(item.text);
    utterance.lang = 'zh-CN';
    const current: Current = { id: item.id, utterance, timer: undefined };
    const finish = () => {
      // Only the utterance being read moves the queue on (a late event of a cancelled one does not).
      if (this.current !== current) return;
      this.timers.clearTimeout(current.timer as never);
      this.current = undefined;
      this.next();
    };
    utterance.onend = finish;
    utterance.onerror = finish;
    this.current = current; // also keeps the utterance referenced, or Chrome may collect it and never end
    current.timer = this.timers.setTimeout(finish, speechTimeoutMs(item.text));
    try {
      speechSynthesis.speak(utterance);
    } catch {
      finish();
    }
  }
}
