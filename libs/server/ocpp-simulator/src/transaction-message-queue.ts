import { randomUUID } from 'node:crypto';

/**
 * Transaction-related messages (StartTransaction, MeterValues, StopTransaction) must reach the central
 * system even across connection loss (OCPP 1.6 §4.10): they wait here in order while the pile is
 * offline and are replayed on reconnect. A message whose answer was lost in flight is retransmitted.
 */
export type QueuedAction = 'StartTransaction' | 'MeterValues' | 'StopTransaction';

export type QueuedMessage = {
  action: QueuedAction;
  /** Built when sent, so a stop queued before its start was answered still carries the right transactionId. */
  params: () => Record<string, unknown>;
  /** Runs synchronously with the answer, before the next message's params are built. */
  onAnswer?: (response: unknown) => void;
  resolve: (response: unknown) => void;
  reject: (error: Error) => void;
  attempts: number;
  /** Set at the first transmission; reused on retransmission when the pile retries with the same id. */
  messageId?: string;
};

export type Transport = {
  online(): boolean;
  /** Send a CALL; with `messageId` the frame carries exactly that id, otherwise a fresh one. */
  send(action: string, params: Record<string, unknown>, messageId: string | undefined): Promise<unknown>;
};

export type QueueOptions = {
  /** OCPP TransactionMessageAttempts: a message the central system keeps refusing is dropped after this many. */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** Retransmit with the first attempt's message id (true) or a fresh one (false). */
  sameMessageIdOnRetry?: boolean;
};

export class TransactionMessageQueue {
  private readonly queue: QueuedMessage[] = [];
  private pumping = false;

  constructor(
    private readonly transport: Transport,
    private readonly options: QueueOptions = {},
  ) {}

  get length(): number {
    return this.queue.length;
  }

  enqueue(
    action: QueuedMessage['action'],
    params: () => Record<string, unknown>,
    onAnswer?: (response: unknown) => void,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ action, params, onAnswer, resolve, reject, attempts: 0 });
      void this.pump();
    });
  }

  /** What is waiting, in order, each with its params as they would be sent now. */
  peek(): { action: QueuedAction; params: Record<string, unknown> }[] {
    return this.queue.map((message) => ({ action: message.action, params: message.params() }));
  }

  /** Send what is waiting, in order, while online. Safe to call any time. */
  async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length && this.transport.online()) {
        const head = this.queue[0];
        head.attempts++;
        try {
          if (this.options.sameMessageIdOnRetry) head.messageId ??= randomUUID();
          const response = await this.transport.send(head.action, head.params(), head.messageId);
          this.queue.shift();
          head.onAnswer?.(response);
          head.resolve(response);
        } catch (error) {
          const e = error as Error & { rpcErrorCode?: string };
          if (!e.rpcErrorCode) {
            // Connection lost (or answer lost): keep it at the head; it is retransmitted on reconnect.
            if (!this.transport.online()) break;
            await delay(this.options.retryDelayMs ?? 500);
            continue;
          }
          if (head.attempts >= (this.options.maxAttempts ?? 3)) {
            this.queue.shift();
            head.reject(e);
          } else {
            await delay(this.options.retryDelayMs ?? 500);
          }
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Give up on everything (pile shut down for good). */
  clear(reason: string): void {
    for (const message of this.queue.splice(0)) message.reject(new Error(reason));
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
