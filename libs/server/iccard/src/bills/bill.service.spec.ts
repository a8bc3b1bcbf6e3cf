import { DomainException } from '@voltdepot/server-core';
import type { IcCardDataScope } from '../iccard-data-scope';
import type { BillAccount, BillTotals, IcBillRepository } from './bill.repository';
import type { BillPosting } from './bill-statement';
import { IcBillService } from './bill.service';

const scope: IcCardDataScope = { rootIds: [1], pathPatterns: ['/1/%'] };
const zhang: BillAccount = { accountId: 5, kind: 'personal', customerId: 9, name: '张三' };

/** An in-memory repository: one account, its postings; records the ranges asked for. */
function fakeRepo(postings: BillPosting[]) {
  const asked: { start: Date; end: Date }[] = [];
  const sumBefore = (start: Date) =>
    postings.filter((p) => p.occurredAt < start).reduce((s, p) => s + p.amountFen, 0);
  const within = (start: Date, end: Date) =>
    postings.filter((p) => p.occurredAt >= start && p.occurredAt < end);
  const repo: Pick<IcBillRepository, 'accounts' | 'account' | 'totals' | 'postings'> = {
    accounts: async (_s, q, end) => {
      asked.push({ start: new Date(0), end });
      const list = q.kind && q.kind !== zhang.kind ? [] : [zhang];
      return { list, total: list.length };
    },
    account: async (_s, id) => (id === zhang.accountId ? zhang : undefined),
    totals: async (ids, start, end) => {
      asked.push({ start, end });
      const byKind = new Map<string, number>();
      for (const p of within(start, end)) byKind.set(p.kind, (byKind.get(p.kind) ?? 0) + p.amountFen);
      const t: BillTotals = {
        openingFen: sumBefore(start),
        totals: [...byKind].map(([kind, amountFen]) => ({ kind, amountFen })),
        orderCount: new Set(
          within(start, end)
            .filter((p) => p.reference)
            .map((p) => p.reference),
        ).size,
      };
      return new Map(ids.map((id) => [id, t]));
    },
    postings: async (_id, start, end) => ({ openingFen: sumBefore(start), postings: within(start, end) }),
  };
  return { repo: repo as IcBillRepository, asked };
}

const at = (iso: string) => new Date(iso);
const postings: BillPosting[] = [
  {
    transactionId: 1,
    kind: 'recharge',
    reference: null,
    occurredAt: at('2026-10-31T15:30:00Z'),
    amountFen: 5000,
  },
  {
    transactionId: 2,
    kind: 'consumption',
    reference: 'O-1',
    occurredAt: at('2026-11-30T15:30:00Z'),
    amountFen: -700,
  },
  {
    transactionId: 3,
    kind: 'refund',
    reference: null,
    occurredAt: at('2026-11-30T16:00:00Z'),
    amountFen: -300,
  },
];

function service(zone = 'Asia/Shanghai', now = at('2026-12-05T00:00:00Z')) {
  const { repo, asked } = fakeRepo(postings);
  const bills = new IcBillService(
    repo,
    { scopeOf: async () => scope },
    { read: async () => zone },
    () => now,
  );
  return { bills, asked };
}

describe('IcBillService', () => {
  it("gives the grid and the statement the same figures, in the business time zone's month", async () => {
    const { bills, asked } = service();
    const page = await bills.page(1, { month: '2026-11' }, 1, 20);
    // 2026-10-31 23:30 in Shanghai is October's; 2026-11-30 23:30 November's; 2026-12-01 00:00 December's.
    expect(page.list[0]).toMatchObject({
      openingFen: 5000,
      consumedFen: 700,
      refundedFen: 0,
      closingFen: 4300,
      orderCount: 1,
    });
    expect(asked.at(-1)).toEqual({ start: at('2026-10-31T16:00:00Z'), end: at('2026-11-30T16:00:00Z') });
    const statement = await bills.statement(1, 5, '2026-11');
    expect(statement.summary).toEqual(page.list[0]);
    expect(statement.lines).toEqual([
      {
        occurredAt: '2026-11-30 23:30:00',
        kind: 'consumption',
        reference: 'O-1',
        amountFen: -700,
        balanceAfterFen: 4300,
      },
    ]);
  });

  it("follows the setting: in UTC the refund at 00:00 on 1 December (Shanghai) is still November's", async () => {
    const { bills } = service('UTC');
    const statement = await bills.statement(1, 5, '2026-11');
    expect(statement.summary).toMatchObject({
      openingFen: 5000,
      consumedFen: 700,
      refundedFen: 300,
      closingFen: 4000,
    });
  });

  it('refuses a month still to come with 400 naming month, and an account out of scope with 404', async () => {
    const { bills } = service('Asia/Shanghai', at('2026-11-30T16:30:00Z')); // already December in Shanghai
    await expect(bills.page(1, { month: '2026-12' }, 1, 20)).resolves.toBeDefined();
    const future = await bills.page(1, { month: '2027-01' }, 1, 20).catch((e: unknown) => e);
    expect(future).toBeInstanceOf(DomainException);
    expect((future as DomainException).httpStatus).toBe(400);
    expect(JSON.stringify((future as DomainException).details)).toContain('month');
    const missing = await bills.statement(1, 404, '2026-11').catch((e: unknown) => e);
    expect((missing as DomainException).httpStatus).toBe(404);
  });

  it('renders the statement as a PDF and an xlsx named in the language', async () => {
    const { bills } = service();
    const xlsx = await bills.document(1, 5, '2026-11', 'zh-CN', 'xlsx');
    expect(xlsx.fileName).toBe('账单-张三-2026-11.xlsx');
    expect(xlsx.body.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('exports the list in batches, and refuses more accounts than one export writes with 422 (never cut short)', async () => {
    const { bills } = service();
    const rows: unknown[] = [];
    for await (const batch of await bills.exportBatches(1, { month: '2026-11' })) rows.push(...batch);
    expect(rows).toEqual([expect.objectContaining({ accountId: 5, closingFen: 4300 })]);
    const refusal = await bills.exportBatches(1, { month: '2026-11' }, 0).catch((e: unknown) => e);
    expect(refusal).toMatchObject({
      code: 'ICCARD_EXPORT_TOO_LARGE',
      httpStatus: 422,
      details: { total: 1, limit: 0 },
    });
  });
});
