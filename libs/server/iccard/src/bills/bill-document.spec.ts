import { billDocument, billFileName, BILL_LINE_KIND_LABELS } from './bill-document';
import type { IcBillStatement } from './dto/bill.dto';

const statement: IcBillStatement = {
  summary: {
    accountId: 7,
    kind: 'group_sub',
    customerId: 3,
    name: '张/三',
    month: '2026-11',
    openingFen: 100,
    rechargedFen: 1000,
    consumedFen: 250,
    refundedFen: 0,
    transferredFen: 0,
    correctedFen: 0,
    closingFen: 850,
    orderCount: 1,
  },
  lines: [
    {
      occurredAt: '2026-11-02 09:00:00',
      kind: 'recharge',
      reference: null,
      amountFen: 1000,
      balanceAfterFen: 1100,
    },
    {
      occurredAt: '2026-11-03 09:00:00',
      kind: 'consumption',
      reference: 'ORD-1',
      amountFen: -250,
      balanceAfterFen: 850,
    },
  ],
};

describe('bill document', () => {
  it('names the file in the language, without characters a file name cannot hold', () => {
    expect(billFileName(statement.summary, 'zh-CN', 'pdf')).toBe('账单-张_三-2026-11.pdf');
    expect(billFileName(statement.summary, 'en-US', 'xlsx')).toBe('bill-张_三-2026-11.xlsx');
  });

  it('lays the statement out in the language: facts in yuan, lines with their kinds, totals', () => {
    const zh = billDocument(statement, 'zh-CN', { timeZone: 'Asia/Shanghai', madeAt: '2026-12-01 08:00:00' });
    expect(zh.title).toBe('账户月度账单');
    expect(zh.meta).toContainEqual({ label: '账户类型', value: '集团子账户' });
    expect(zh.meta).toContainEqual({ label: '期初余额(元)', value: '1.00' });
    expect(zh.meta).toContainEqual({ label: '期末余额(元)', value: '8.50' });
    expect(zh.sections[0]!.rows).toEqual([
      ['2026-11-02 09:00:00', '充值', null, 10, 11],
      ['2026-11-03 09:00:00', '充电消费', 'ORD-1', -2.5, 8.5],
    ]);
    expect(zh.sections[0]!.totals).toEqual(['合计', null, null, 7.5, 8.5]);
    expect(zh.footer).toContain('Asia/Shanghai');
    const en = billDocument(statement, 'en-US', { timeZone: 'Asia/Shanghai', madeAt: '2026-12-01 08:00:00' });
    expect(en.sections[0]!.columns.map((c) => c.header)).toEqual([
      'Time',
      'Type',
      'Order number',
      'Amount (yuan)',
      'Balance (yuan)',
    ]);
    expect(en.sections[0]!.rows[1]![1]).toBe('Charging');
  });

  it('has a label in both languages for every ledger transaction kind', () => {
    for (const kind of [
      'recharge',
      'refund',
      'consumption',
      'consumption_amendment',
      'allocation',
      'reclaim',
      'correction',
    ]) {
      expect(BILL_LINE_KIND_LABELS[kind]?.['zh-CN']).toBeTruthy();
      expect(BILL_LINE_KIND_LABELS[kind]?.['en-US']).toBeTruthy();
    }
  });
});
