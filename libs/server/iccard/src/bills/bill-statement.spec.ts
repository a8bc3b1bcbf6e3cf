import fc from 'fast-check';
import {
  type BillPosting,
  billFigures,
  billFiguresOfPostings,
  billLines,
  businessTime,
  closingOf,
  isMonth,
  monthOf,
  monthRange,
  yuan,
} from './bill-statement';

const SH = 'Asia/Shanghai';
const at = (iso: string) => new Date(iso);
let nextId = 1;
const posting = (
  kind: string,
  amountFen: number,
  occurredAt: string,
  reference: string | null = null,
): BillPosting => ({
  transactionId: nextId++,
  kind,
  reference,
  occurredAt: at(occurredAt),
  amountFen,
});

describe('bill figures', () => {
  it('counts each kind in its figure, consumption and refunds shown positive', () => {
    const f = billFigures(
      1000,
      [
        { kind: 'recharge', amountFen: 5000 },
        { kind: 'consumption', amountFen: -1200 },
        { kind: 'consumption_amendment', amountFen: 200 },
        { kind: 'refund', amountFen: -300 },
        { kind: 'allocation', amountFen: 700 },
        { kind: 'reclaim', amountFen: -100 },
        { kind: 'correction', amountFen: -5 },
      ],
      1,
    );
    expect(f).toEqual({
      openingFen: 1000,
      rechargedFen: 5000,
      consumedFen: 1000,
      refundedFen: 300,
      transferredFen: 600,
      correctedFen: -5,
      closingFen: 5295,
      orderCount: 1,
    });
    expect(closingOf(f)).toBe(f.closingFen);
  });

  it('keeps opening + recharged - consumed - refunded + transferred + corrected = closing for any postings', () => {
    const kinds = [
      'recharge',
      'refund',
      'consumption',
      'consumption_amendment',
      'allocation',
      'reclaim',
      'correction',
      'other',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom(...kinds),
            amountFen: fc.integer({ min: -100_000, max: 100_000 }).filter((n) => n !== 0),
            reference: fc.option(fc.constantFrom('O1', 'O2', 'O3'), { nil: null }),
            minute: fc.integer({ min: 0, max: 40_000 }),
          }),
          { maxLength: 60 },
        ),
        (opening, raw) => {
          const postings = raw.map((r, i) => ({
            transactionId: i + 1,
            kind: r.kind,
            reference: r.reference,
            amountFen: r.amountFen,
            occurredAt: new Date(Date.UTC(2026, 10, 1) + r.minute * 60_000),
          }));
          const f = billFiguresOfPostings(opening, postings);
          const sum = postings.reduce((s, p) => s + p.amountFen, 0);
          expect(f.closingFen).toBe(opening + sum);
          expect(closingOf(f)).toBe(f.closingFen);
          const lines = billLines(opening, postings, (d) => d.toISOString());
          expect(lines.reduce((s, l) => s + l.amountFen, 0)).toBe(sum);
          expect(lines.at(-1)?.balanceAfterFen ?? opening).toBe(f.closingFen);
          // One consumption line per order.
          const refs = lines
            .filter((l) => l.kind.startsWith('consumption') && l.reference)
            .map((l) => l.reference);
          expect(new Set(refs).size).toBe(refs.length);
        },
      ),
      { seed: 25, numRuns: 300 },
    );
  });
});

describe('bill lines', () => {
  it('folds an order and its amendments of the month into one line at the settlement, in time order', () => {
    const lines = billLines(
      500,
      [
        posting('recharge', 10_000, '2026-11-02T01:00:00Z'),
        posting('consumption', -3000, '2026-11-03T01:00:00Z', 'ORD-1'),
        posting('refund', -1000, '2026-11-04T01:00:00Z'),
        posting('consumption_amendment', 500, '2026-11-05T01:00:00Z', 'ORD-1'),
        posting('consumption_amendment', -200, '2026-11-06T01:00:00Z', 'ORD-0'),
      ],
      (d) => businessTime(d, SH),
    );
    expect(lines).toEqual([
      {
        occurredAt: '2026-11-02 09:00:00',
        kind: 'recharge',
        reference: null,
        amountFen: 10_000,
        balanceAfterFen: 10_500,
      },
      {
        occurredAt: '2026-11-03 09:00:00',
        kind: 'consumption',
        reference: 'ORD-1',
        amountFen: -2500,
        balanceAfterFen: 8000,
      },
      {
        occurredAt: '2026-11-04 09:00:00',
        kind: 'refund',
        reference: null,
        amountFen: -1000,
        balanceAfterFen: 7000,
      },
      {
        occurredAt: '2026-11-06 09:00:00',
        kind: 'consumption_amendment',
        reference: 'ORD-0',
        amountFen: -200,
        balanceAfterFen: 6800,
      },
    ]);
  });

  it('counts orders once each, amendments included', () => {
    const f = billFiguresOfPostings(0, [
      posting('consumption', -3000, '2026-11-03T01:00:00Z', 'ORD-1'),
      posting('consumption_amendment', 500, '2026-11-05T01:00:00Z', 'ORD-1'),
      posting('consumption', -100, '2026-11-05T02:00:00Z', 'ORD-2'),
    ]);
    expect(f.orderCount).toBe(2);
    expect(f.consumedFen).toBe(2600);
  });
});

describe('months in the business time zone', () => {
  it('takes a posting at 23:30 on the last day in Shanghai into that month', () => {
    const lastEvening = at('2026-11-30T15:30:00Z'); // 2026-11-30 23:30 in Shanghai
    const { start, end } = monthRange('2026-11', SH);
    expect(start.toISOString()).toBe('2026-10-31T16:00:00.000Z');
    expect(end.toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(lastEvening >= start && lastEvening < end).toBe(true);
    expect(monthOf(lastEvening, SH)).toBe('2026-11');
    expect(monthOf(lastEvening, 'UTC')).toBe('2026-11');
    expect(monthOf(at('2026-11-30T16:30:00Z'), SH)).toBe('2026-12');
  });

  it('crosses the year and follows daylight saving time', () => {
    expect(monthRange('2026-12', SH).end.toISOString()).toBe('2026-12-31T16:00:00.000Z');
    // Berlin: CET in March (+1), CEST in April (+2).
    const march = monthRange('2026-03', 'Europe/Berlin');
    expect(march.start.toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(march.end.toISOString()).toBe('2026-03-31T22:00:00.000Z');
  });

  it('reads a year below 100 as itself, not as 19xx', () => {
    const { start, end } = monthRange('0099-12', 'UTC');
    expect([start.getUTCFullYear(), start.getUTCMonth(), end.getUTCFullYear()]).toEqual([99, 11, 100]);
  });

  it('recognises months and formats money', () => {
    expect(['2026-11', '2026-01', '1999-12'].every(isMonth)).toBe(true);
    expect(['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', ''].some(isMonth)).toBe(false);
    expect([yuan(0), yuan(5), yuan(-1230), yuan(123456)]).toEqual(['0.00', '0.05', '-12.30', '1234.56']);
  });
});
