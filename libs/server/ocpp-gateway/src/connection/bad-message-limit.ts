/**
 * Counts a connection's bad messages (frames that are not valid OCPP calls, calls the gateway refuses)
 * over a sliding window. ocpp-rpc closes a connection after too many bad frames in a row only, and
 * only for frames it cannot parse; a pile alternating good and bad messages, or sending schema
 * violations or unknown actions, would never be stopped without this.
 */
export class BadMessageLimit {
  private readonly times: number[] = [];

  constructor(
    /** Bad messages tolerated within the window; one more closes the connection. */
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Record one bad message; true when the limit is exceeded. */
  strike(): boolean {
    const now = this.now();
    this.times.push(now);
    while (this.times.length && this.times[0] <= now - this.windowMs) this.times.shift();
    if (this.times.length > this.max + 1) this.times.splice(0, this.times.length - (this.max + 1));
    return this.times.length > this.max;
  }
}
