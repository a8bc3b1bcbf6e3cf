import type { StopNotice } from '@voltdepot/shared-contracts';
import { SpeechQueue } from './speechQueue';
import { StopNoticeBoard } from './stopNotice';
import { enqueueNotice, removeNotice, type NoticeQueueLimits, type QueuedNotice } from './stopNoticeQueue';

type Speaker = Pick<SpeechQueue, 'enqueue' | 'skip' | 'clear'>;

export type StopNoticeFeedOptions = NoticeQueueLimits & { speech?: Speaker };

/**
 * The stop notices of one push connection: merged per transaction by the board (amount arriving later,
 * spoken once, not reopened after dismissal), held in a first-in-first-shown queue, and read aloud one
 * at a time. Listeners get the whole queue after each change.
 */
export class StopNoticeFeed {
  private readonly board = new StopNoticeBoard();
  private readonly speech: Speaker;
  private readonly limits: NoticeQueueLimits;
  private readonly listeners = new Set<(queue: readonly QueuedNotice[]) => void>();
  private items: QueuedNotice[] = [];
  private unkeyed = 0;

  constructor({ speech = new SpeechQueue(), ...limits }: StopNoticeFeedOptions = {}) {
    this.speech = speech;
    this.limits = limits;
  }

  get queue(): readonly QueuedNotice[] {
    return this.items;
  }

  subscribe(listener: (queue: readonly QueuedNotice[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  receive(pushed: StopNotice): void {
    const update = this.board.receive(pushed);
    if (!update) return; // the amount of a notice the user already dismissed
    const id = pushed.key ?? `unkeyed-${++this.unkeyed}`;
    const { queue, dropped } = enqueueNotice(this.items, { id, notice: update.notice }, this.limits);
    for (const old of dropped) this.forget(old.id);
    this.change(queue);
    if (update.speak) this.speech.enqueue(id, update.notice.msg);
  }

  dismiss(id: string): void {
    this.forget(id);
    this.change(removeNotice(this.items, id));
  }

  dismissAll(): void {
    for (const queued of this.items) this.forget(queued.id);
    this.change([]);
  }

  /** The connection closed (signed out): nothing more is shown or said. */
  dispose(): void {
    this.speech.clear();
    this.listeners.clear();
    this.items = [];
  }

  private forget(id: string): void {
    this.board.dismiss(id);
    this.speech.skip(id);
  }

  private change(queue: QueuedNotice[]): void {
    this.items = queue;
    for (const listener of this.listeners) listener(queue);
  }
}
