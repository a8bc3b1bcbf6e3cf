/**
 * A customer account's monthly statement, computed from its postings (pure; docs/ic-cards.md, Bills).
 * Amounts are the change of the customer's net position (balance minus arrears) in integer fen, one
 * per ledger transaction: the repository sums a transaction's entries on the account and on its
 * arrears account.
 */

export type BillPosting = {
  transactionId: number;
  kind: string;
  reference: string | null;
  occurredAt: Date;
  /** Net change of the account holder's position (signed fen). */
  amountFen: number;
};

export type BillFigures = {
  openingFen: number;
  rechargedFen: number;
  consumedFen: number;
  refundedFen: number;
  /** Net allocations from the group (+) and reclaims by it (-), or the other way round for a group. */
  transferredFen: number;
  correctedFen: number;
  closingFen: number;
  orderCount: number;
};

export type BillLine = {
  occurredAt: string;
  kind: string;
  reference: string | null;
  amountFen: number;
  balanceAfterFen: number;
};

type FigureKey = 'rechargedFen' | 'consumedFen' | 'refundedFen' | 'transferredFen' | 'correctedFen';

/** Which figure a transaction counts in, and with which sign (consumption and refunds are shown positive). */
export function figureOf(kind: string): { key: FigureKey; sign: 1 | -1 } {
  switch (kind) {
    case 'recharge':
      return { key: 'rechargedFen', sign: 1 };
    case 'refund':
      return { key: 'refundedFen', sign: -1 };
    case 'consumption':
    case 'consumption_amendment':
      return { key: 'consumedFen', sign: -1 };
    case 'allocation':
    case 'reclaim':
      return { key: 'transferredFen', sign: 1 };
    default:
      // 'correction' and any kind the ledger adds later: still in the balance, so still in the bill.
      return { key: 'correctedFen', sign: 1 };
  }
}

export const isConsumption = (kind: string) => kind === 'consumption' || kind === 'consumption_amendment';

/**
 * The figures from the opening position and the month's totals per kind (what the grid's query sums).
 * Invariant: opening + recharged - consumed - refunded + transferred + corrected = closing.
 */
export function billFigures(
  openingFen: number,
  totals: readonly { kind: string; amountFen: number }[],
  orderCount: number,
): BillFigures {
  const f: BillFigures = {
    openingFen,
    rechargedFen: 0,
    consumedFen: 0,
    refundedFen: 0,
    transferredFen: 0,
    correctedFen: 0,
    closingFen: openingFen,
    orderCount,
  };
  for (const t of totals) {
    const { key, sign } = figureOf(t.kind);
    f[key] += sign * t.amountFen;
    f.closingFen += t.amountFen;
  }
  return f;
}

/** The invariant a bill keeps (checked by the tests; a bill that broke it would be wrong arithmetic). */
export function closingOf(f: Omit<BillFigures, 'closingFen' | 'orderCount'>): number {
  return f.openingFen + f.rechargedFen - f.consumedFen - f.refundedFen + f.transferredFen + f.correctedFen;
}

/**
 * The statement's lines in time order. Consumption is by order: the order's settlement and its
 * amendments in the same month are one line (at the first posting's time; kind `consumption`, or
 * `consumption_amendment` when the month holds only amendments of an order settled earlier). Every
 * other transaction is a line of its own. `balanceAfterFen` is the running position after the line.
 */
export function billLines(
  openingFen: number,
  postings: readonly BillPosting[],
  formatTime: (at: Date) => string,
): BillLine[] {
  const sorted = [...postings].sort(
    (a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.transactionId - b.transactionId,
  );
  const lines: { at: Date; kind: string; reference: string | null; amountFen: number }[] = [];
  const byOrder = new Map<string, (typeof lines)[number]>();
  for (const p of sorted) {
    if (isConsumption(p.kind) && p.reference !== null) {
      const line = byOrder.get(p.reference);
      if (line) {
        line.amountFen += p.amountFen;
        if (p.kind === 'consumption') line.kind = 'consumption';
        continue;
      }
      const added = { at: p.occurredAt, kind: p.kind, reference: p.reference, amountFen: p.amountFen };
      byOrder.set(p.reference, added);
      lines.push(added);
      continue;
    }
    lines.push({ at: p.occurredAt, kind: p.kind, reference: p.reference, amountFen: p.amountFen });
  }
  let balance = openingFen;
  return lines.map((l) => {
    balance += l.amountFen;
    return {
      occurredAt: formatTime(l.at),
      kind: l.kind,
      reference: l.reference,
      amountFen: l.amountFen,
      balanceAfterFen: balance,
    };
  });
}

/** The figures of a statement from its postings (the detail page; the grid sums in SQL). */
export function billFiguresOfPostings(openingFen: number, postings: readonly BillPosting[]): BillFigures {
  const orders = new Set(
    postings.filter((p) => isConsumption(p.kind) && p.reference !== null).map((p) => p.reference),
  );
  const unreferenced = postings.filter((p) => isConsumption(p.kind) && p.reference === null).length;
  return billFigures(openingFen, postings, orders.size + unreferenced);
}

// ---- months in the business time zone ----

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(text: string): boolean {
  return MONTH.test(text);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts['year']),
    month: Number(parts['month']),
    day: Number(parts['day']),
    hour: Number(parts['hour']),
    minute: Number(parts['minute']),
    second: Number(parts['second']),
  };
}

/** Milliseconds of a UTC date-time; unlike Date.UTC, years 0-99 are not read as 1900-1999. */
function utcOf(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second);
  return at.getTime();
}

/** The instant a wall-clock time of a zone is (the zone's offset found by two corrections: DST-safe). */
function instantOfWallClock(year: number, month: number, day: number, timeZone: string): Date {
  const target = utcOf(year, month, day);
  let guess = target;
  for (let i = 0; i < 2; i++) {
    const w = wallClock(new Date(guess), timeZone);
    const shown = utcOf(w.year, w.month, w.day, w.hour, w.minute, w.second);
    guess += target - shown;
  }
  return new Date(guess);
}

/** [start, end) of a month `YYYY-MM` in the business time zone. */
export function monthRange(month: string, timeZone: string): { start: Date; end: Date } {
  const m = MONTH.exec(month);
  if (!m) throw new Error(`not a month: ${month}`);
  const year = Number(m[1]);
  const mon = Number(m[2]);
  return {
    start: instantOfWallClock(year, mon, 1, timeZone),
    end:
      mon === 12
        ? instantOfWallClock(year + 1, 1, 1, timeZone)
        : instantOfWallClock(year, mon + 1, 1, timeZone),
  };
}

/** The month `YYYY-MM` an instant falls in, in the business time zone. */
export function monthOf(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${w.year}-${String(w.month).padStart(2, '0')}`;
}

/** `YYYY-MM-DD HH:mm:ss` in the business time zone. */
export function businessTime(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}:${p(w.second)}`;
}

/** Fen as yuan with two decimals ('-12.30'). */
export function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
