import type { GridPage } from '@voltdepot/shared-contracts';
import type { OrderOperationRow } from '@voltdepot/console-api-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { OrderOperationsPage } from './OrderOperationsPage';

const answer: GridPage<OrderOperationRow> = {
  list: [
    {
      id: 'review:11',
      at: '2026-11-22T02:00:00.000Z',
      action: 'rejected',
      operator: 'alice',
      orderId: 11,
      orderNo: 'CP1-20261121-000042',
      stationName: 'East Depot',
      detail: 'meter ran backwards',
      amountFen: null,
    },
  ],
  total: 1,
};

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-22T07:42:10Z')); // 2026-11-22 15:42:10 in the business time zone
});
afterAll(() => {
  vi.useRealTimers();
});

describe('OrderOperationsPage', { timeout: 120_000 }, () => {
  it('asks for the default order period first and lists each action with its operator and order', async () => {
    const { calls } = stubApi({ 'GET /api/orderOperation/page/1/size/20': () => answer });
    await renderInApp(<OrderOperationsPage />);
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/api/orderOperation/page/1/size/20')).toBe(true),
    );
    const first = calls.find((c) => c.path === '/api/orderOperation/page/1/size/20')!;
    expect(Date.parse(first.query.get('start')!)).toBe(Date.parse('2026-11-21T00:00:00+08:00'));
    expect(Date.parse(first.query.get('end')!)).toBe(Date.parse('2026-11-22T23:59:59+08:00'));
    expect([...first.query.keys()].sort()).toEqual(['end', 'start']);
    await waitFor(() => expect(document.body.textContent).toContain('CP1-20261121-000042'));
    const text = document.body.textContent ?? '';
    expect(text).toContain('alice');
    expect(text).toContain('Rejected');
    expect(text).toContain('meter ran backwards');
    const link = [...document.querySelectorAll('a')].find((a) => a.textContent === 'CP1-20261121-000042');
    expect(link?.getAttribute('href')).toContain('11');
  });
});
