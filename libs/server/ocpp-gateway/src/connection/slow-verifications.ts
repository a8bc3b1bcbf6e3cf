/**
 * Runs slow password verifications (argon2, on libuv's small thread pool) a few at a time, with a
 * bounded queue: a handshake that finds the queue full, or is given up (answered, or its socket gone)
 * before its turn, costs no verification at all. Without this a reconnect storm of piles with argon2
 * hashes queued every verification on the thread pool, and answers came minutes late.
 */
export class SlowVerifications {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  /** `task`'s result, or undefined when the queue is full or `signal` was aborted before its turn. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length >= this.maxWaiting) return undefined;
    // A finishing task hands its slot over to the next in line (the count stays as it is).
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return signal?.aborted ? undefined : await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Verifications running and waiting (for tests and diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
