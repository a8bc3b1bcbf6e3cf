import type { DataSource } from 'typeorm';
import { storableText, withoutNul } from '../persistence/storable-values';

export type FrameDirection = 'in' | 'out';

export type MessageLogOptions = {
  /** Flush when this many frames are waiting... */
  batchSize?: number;
  /** ...or this long after the first one arrived (ms). */
  flushIntervalMs?: number;
  /** Frames kept in memory at most; beyond it new frames are dropped (and counted) rather than slowing piles. */
  maxBuffered?: number;
  /** Frames older than this are deleted (days). */
  retentionDays?: number;
  /** How often the retention sweep runs (ms). */
  retentionSweepMs?: number;
  /** Rows deleted per retention statement: the sweep loops, so it never holds one huge transaction. */
  retentionChunk?: number;
  /** Attempts to write a batch (the first and the retries) before its frames are dropped. */
  writeAttempts?: number;
  /** Wait before the first retry of a failed batch (ms); doubles on each further retry. */
  retryDelayMs?: number;
  onError?: (error: unknown) => void;
  /** Frames dropped: the buffer was full, or their batch failed every attempt. */
  onDrop?: (reason: MessageLogDropReason, frames: number) => void;
  /** A failed batch is written again (attempt 2, 3, ...). */
  onRetry?: (attempt: number) => void;
};

export type MessageLogDropReason = 'buffer_full' | 'write_failed';

type Frame = {
  chargePointId: string;
  direction: FrameDirection;
  messageType: number | null;
  messageId: string | null;
  action: string | null;
  frame: string;
  /** Epoch milliseconds (a number: a Date per frame costs more than the insert needs). */
  loggedAt: number;
};

/** One connection's calls awaiting their answer: message id → action. */
type OpenCalls = Map<string, string>;

/** Open calls remembered per connection at most (OCPP has one in flight per direction). */
const MAX_OPEN_CALLS = 16;

/**
 * Every OCPP frame in and out, per pile, written in batches off the hot path: `record()` only pushes to a
 * buffer; a timer writes the buffer with one multi-row INSERT. A batch that fails (a connection lost, a
 * fail-over) is written again a few times with a growing pause before its frames are given up; frames
 * go on collecting meanwhile. If the database stays behind, the buffer is bounded and excess frames are
 * dropped and counted instead of holding up pile traffic.
 */
export class MessageLogWriter {
  private buffer: Frame[] = [];
  private timer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;
  private stopped = false;
  private flushing: Promise<void> = Promise.resolve();
  dropped = 0;
  written = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: MessageLogOptions = {},
  ) {}

  start(): void {
    const sweepMs = this.options.retentionSweepMs ?? 3600_000;
    this.sweepTimer = setInterval(() => {
      this.sweep().catch((error) => this.options.onError?.(error));
    }, sweepMs);
    this.sweepTimer.unref();
  }

  /**
   * The recorder of one connection. It remembers the connection's own open calls (a CALL's id and
   * action until its answer), to name each CALLRESULT or CALLERROR after the CALL it answers: ids are
   * only unique per connection, and the memory goes with the connection.
   */
  forPile(chargePointId: string): (direction: FrameDirection, frame: string) => void {
    const openCalls: OpenCalls = new Map();
    return (direction, frame) => this.record(chargePointId, direction, frame, openCalls);
  }

  /**
   * Buffer one frame. With `openCalls` (the connection's, see forPile) an answer is named after its
   * call; without it answers carry no action.
   */
  record(chargePointId: string, direction: FrameDirection, frame: string, openCalls?: OpenCalls): void {
    if (this.buffer.length >= (this.options.maxBuffered ?? 50_000)) {
      this.drop('buffer_full', 1);
      return;
    }
    const { messageType, messageId, action: called } = describeFrame(frame);
    let action = called;
    if (openCalls && messageId) {
      if (messageType === 2) {
        // OCPP allows one call in flight per direction; a pile that never answers cannot grow this.
        if (openCalls.size >= MAX_OPEN_CALLS) openCalls.clear();
        openCalls.set(messageId, action ?? '');
      } else if (messageType === 3 || messageType === 4) {
        action = openCalls.get(messageId) || null;
        openCalls.delete(messageId);
      }
    }
    this.buffer.push({
      chargePointId,
      direction,
      messageType,
      messageId,
      action,
      frame,
      loggedAt: Date.now(),
    });
    if (this.buffer.length >= (this.options.batchSize ?? 500)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.flushIntervalMs ?? 250);
      this.timer.unref();
    }
  }

  /** Write everything buffered so far. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(() => (batch.length ? this.write(batch) : undefined));
    return this.flushing;
  }

  private async write(batch: Frame[]): Promise<void> {
    const attempts = Math.max(1, this.options.writeAttempts ?? 4);
    let delayMs = this.options.retryDelayMs ?? 250;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.insert(batch);
        this.written += batch.length;
        return;
      } catch (error) {
        this.options.onError?.(error);
        // Stopping: one attempt more is all the shutdown waits for.
        if (attempt >= attempts || (this.stopped && attempt > 1)) {
          this.drop('write_failed', batch.length);
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      delayMs *= 2;
      this.options.onRetry?.(attempt + 1);
    }
  }

  /**
   * One statement for the batch, its rows as one JSON parameter: node-postgres would otherwise escape
   * every frame character by character into an array literal (the costliest part of the write in a
   * CPU profile of the gateway under load), where JSON.stringify is native and PostgreSQL parses it in C.
   */
  private insert(batch: Frame[]): Promise<unknown> {
    const rows = batch.map((f) => ({
      c: f.chargePointId,
      d: f.direction,
      t: f.messageType,
      i: storableField(f.messageId),
      a: storableField(f.action),
      f: withoutNul(f.frame),
      l: f.loggedAt,
    }));
    return this.dataSource.query(
      `INSERT INTO ocpp_message_log (charge_point_id, direction, message_type, message_id, action, frame, logged_at)
       SELECT c, d, t, i, a, f, to_timestamp(l / 1000.0) FROM jsonb_to_recordset($1::jsonb)
         AS r(c text, d text, t smallint, i text, a text, f text, l bigint)`,
      [JSON.stringify(rows)],
    );
  }

  private drop(reason: MessageLogDropReason, frames: number): void {
    this.dropped += frames;
    this.options.onDrop?.(reason, frames);
  }

  /**
   * Delete frames older than the retention period, `retentionChunk` rows per statement (each its own
   * short transaction) until none is left; returns how many were deleted. The cut-off is fixed when the
   * sweep starts, so it ends even while frames keep ageing. One sweep at a time.
   */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepInChunks().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepInChunks(): Promise<number> {
    const days = this.options.retentionDays ?? 7;
    const chunk = Math.max(1, this.options.retentionChunk ?? 10_000);
    const [{ cutoff }]: { cutoff: Date }[] = await this.dataSource.query(
      `SELECT now() - ($1::int * interval '1 day') AS cutoff`,
      [days],
    );
    let total = 0;
    while (!this.stopped) {
      // Oldest first through the logged_at index; ids, so each statement touches exactly `chunk` rows.
      const result: [unknown[], number] = await this.dataSource.query(
        `DELETE FROM ocpp_message_log WHERE id IN (
           SELECT id FROM ocpp_message_log WHERE logged_at < $1 ORDER BY logged_at LIMIT $2)`,
        [cutoff, chunk],
      );
      total += result[1];
      if (result[1] < chunk) break;
    }
    return total;
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.stopped = true;
    await this.flush();
    await this.sweeping?.catch(() => undefined);
  }
}

// `[type, "messageId", "Action", ...`: the head of a frame is all the log needs, so it is read with one
// anchored match instead of parsing the whole payload a second time (ocpp-rpc has parsed it already).
const FRAME_HEAD =
  /^\s*\[\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(?:,\s*("(?:[^"\\]|\\.)*")\s*(?:,\s*("(?:[^"\\]|\\.)*"))?)?/;

/**
 * A frame's id or action, decoded from the JSON escapes a pile chose (and cut to 100 characters, which
 * may split a pair), made storable (see `storableText`). (Frames themselves arrive as valid UTF-8 text.)
 */
function storableField(text: string | null): string | null {
  return text === null ? null : storableText(text);
}

/** Message type, id and (for a CALL) action of a frame; null for what it does not carry. */
export function describeFrame(frame: string): Pick<Frame, 'messageType' | 'messageId' | 'action'> {
  const head = FRAME_HEAD.exec(frame);
  if (!head) return { messageType: null, messageId: null, action: null };
  const type = Number(head[1]);
  const id = jsonString(head[2]);
  const action = jsonString(head[3]);
  return {
    messageType: Number.isInteger(type) && Math.abs(type) < 32_768 ? type : null,
    messageId: id === null ? null : id.slice(0, 100),
    action: type === 2 && action !== null ? action.slice(0, 100) : null,
  };
}

/** A JSON string literal whose value is the text between its quotes: no escape, no raw control character (invalid). */
function isPlain(literal: string): boolean {
  for (let i = 1; i < literal.length - 1; i++) {
    const code = literal.charCodeAt(i);
    if (code < 0x20 || code === 0x5c) return false;
  }
  return true;
}

function jsonString(literal: string | undefined): string | null {
  if (literal === undefined) return null;
  // Most ids and actions are plain: their value is the text between the quotes, no parse needed.
  if (isPlain(literal)) return literal.slice(1, -1);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null; // an invalid escape or a raw control character
  }
}
