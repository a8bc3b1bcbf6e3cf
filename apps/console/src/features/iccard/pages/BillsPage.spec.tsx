import { fireEvent } from '@testing-library/react';
import type { IcBillStatement, IcBillSummary } from '@voltdepot/console-api-client';
import type { GridPage } from '@voltdepot/shared-contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { BillsPage } from './BillsPage';

const bill: IcBillSummary = {
  accountId: 12,
  kind: 'personal',
  customerId: 3,
  name: '张三',
  month: '2026-11',
  openingFen: 0,
  rechargedFen: 10_000,
  consumedFen: 3_734,
  refundedFen: 1_000,
  transferredFen: 0,
  correctedFen: 0,
  closingFen: 5_266,
  orderCount: 2,
};
const page: GridPage<IcBillSummary> = { list: [bill], total: 1 };
const statement: IcBillStatement = {
  summary: bill,
  lines: [
    {
      occurredAt: '2026-11-02 09:00:00',
      kind: 'recharge',
      reference: null,
      amountFen: 10_000,
      balanceAfterFen: 10_000,
    },
    {
      occurredAt: '2026-11-03 09:00:00',
      kind: 'consumption',
      reference: 'ORD-B-1',
      amountFen: -2_500,
      balanceAfterFen: 7_500,
    },
  ],
};
const file = (type: string, name: string) =>
  new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
    status: 200,
    headers: {
      'content-type': type,
      'content-disposition': `attachment; filename="bill.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  });

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-30T15:30:00Z')); // 2026-11-30 23:30 in the business time zone
});
afterAll(() => {
  vi.useRealTimers();
});

function stub() {
  return stubApi({
    'GET /api/iccard/bill/page/1/size/20': () => page,
    'GET /api/iccard/bill/12/2026-11': () => statement,
    'GET /api/iccard/bill/12/2026-11/pdf': () => file('application/pdf', 'bill-张三-2026-11.pdf'),
    'GET /api/iccard/bill/12/2026-11/xlsx': () =>
      file('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'bill-张三-2026-11.xlsx'),
    'GET /api/iccard/bill/export/xlsx': () =>
      file('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'bills-2026-11.xlsx'),
  });
}

describe('BillsPage', { timeout: 120_000 }, () => {
  it("asks for this month's bills in the business time zone, opens a statement and downloads its files", async () => {
    URL.createObjectURL = vi.fn(() => 'blob:bill');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = stub();
    await renderInApp(<BillsPage />, { permissions: ['iccard:bill', 'iccard:bill:query'] });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/iccard/bill/page/1/size/20')).toBe(true));
    const first = calls.find((c) => c.path === '/api/iccard/bill/page/1/size/20')!;
    expect([...first.query.entries()]).toEqual([['month', '2026-11']]);
    await waitFor(() => expect(document.body.textContent).toContain('张三'));
    const text = document.body.textContent ?? '';
    expect(text).toContain('Personal account');
    expect(text).toContain('100.00');
    expect(text).toContain('37.34');
    expect(text).toContain('52.66');

    fireEvent.click(document.querySelector('[data-testid="bill-view-12"]') as HTMLElement);
    await waitFor(() =>
      expect(document.querySelector('[data-testid="bill-lines"]')?.textContent).toContain('ORD-B-1'),
    );
    const lines = document.querySelector('[data-testid="bill-lines"]')!.textContent ?? '';
    expect(lines).toContain('Charging');
    expect(lines).toContain('-25.00');
    expect(lines).toContain('75.00');
    expect(document.body.textContent).toContain('Statement of 张三, 2026-11');

    fireEvent.click(document.querySelector('[data-testid="bill-download-pdf"]') as HTMLElement);
    await waitFor(() => expect(saved).toContain('bill-张三-2026-11.pdf'));
    expect(calls.find((c) => c.path === '/api/iccard/bill/12/2026-11/pdf')!.query.get('lang')).toBe('en-US');
    fireEvent.click(document.querySelector('[data-testid="bill-download-xlsx"]') as HTMLElement);
    await waitFor(() => expect(saved).toContain('bill-张三-2026-11.xlsx'));

    fireEvent.click(document.querySelector('[data-testid="bill-export"]') as HTMLElement);
    await waitFor(() => expect(calls.some((c) => c.path === '/api/iccard/bill/export/xlsx')).toBe(true));
    const exported = calls.find((c) => c.path === '/api/iccard/bill/export/xlsx')!;
    expect(exported.query.get('month')).toBe('2026-11');
    expect(exported.query.get('lang')).toBe('en-US');
  });

  it('shows neither the statement action nor the export without the button', async () => {
    stub();
    await renderInApp(<BillsPage />, { permissions: [] });
    await waitFor(() => expect(document.body.textContent).toContain('张三'));
    expect(document.querySelector('[data-testid="bill-view-12"]')).toBeNull();
    expect(document.querySelector('[data-testid="bill-export"]')).toBeNull();
  });
});
