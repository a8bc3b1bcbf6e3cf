import type { ChargingOrderPage, ChargingOrderRow } from '@voltdepot/console-api-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { dictionaryRoutes } from '../../../test/fakeApi';
import { aChargingOrder, BILLING_DICTIONARIES } from '../../../test/fixtures';
import { OrderQueryPage } from './OrderQueryPage';

const order: ChargingOrderRow = aChargingOrder();

const answer: ChargingOrderPage = {
  list: [order],
  total: 1,
  totals: {
    count: 1,
    energyWh: 123_456,
    electricityFen: 9_876,
    serviceFen: 5_432,
    totalFen: 15_308,
    discountFen: 0,
  },
};

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-22T07:42:10Z')); // 2026-11-22 15:42:10 in the business time zone
});
afterAll(() => {
  vi.useRealTimers();
});

describe('OrderQueryPage', { timeout: 120_000 }, () => {
  it('asks for yesterday 00:00:00 to today 23:59:59 first, and shows the orders with their totals', async () => {
    const { calls } = stubApi({
      ...dictionaryRoutes(BILLING_DICTIONARIES),
      'GET /api/chargingOrder/options': () => ({
        stations: [{ id: 1, name: 'East Depot' }],
        piles: [{ id: 3, name: 'Pile 3', stationId: 1, chargePointId: 'CP1' }],
        guns: [{ id: 5, name: 'Gun 1', pileId: 3, channel: 1 }],
      }),
      'GET /api/chargingOrder/page/1/size/20': () => answer,
    });
    await renderInApp(<OrderQueryPage />);
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chargingOrder/page/1/size/20')).toBe(true));
    const first = calls.find((c) => c.path === '/api/chargingOrder/page/1/size/20')!;
    // Days of the business time zone (Asia/Shanghai) whatever the browser's, sent as instants with the
    // browser's offset, so the api reads them whatever its own time zone.
    expect(first.query.get('start')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Date.parse(first.query.get('start')!)).toBe(Date.parse('2026-11-21T00:00:00+08:00'));
    expect(Date.parse(first.query.get('end')!)).toBe(Date.parse('2026-11-22T23:59:59+08:00'));
    expect([...first.query.keys()].sort()).toEqual(['end', 'start']);

    await waitFor(() => expect(document.body.textContent).toContain('CP1-20261121-000042'));
    const totals = document.querySelector('[data-testid="order-totals"]')?.textContent ?? '';
    expect(totals).toContain('Total: 1 orders');
    expect(totals).toContain('123.456');
    expect(totals).toContain('98.76');
    expect(totals).toContain('54.32');
    expect(totals).toContain('153.08');
    expect(document.querySelector('[data-testid="order-totals-line"]')?.textContent).toBe(
      'Total 1 orders: 123.456 kW·h, electricity 98.76 yuan, service 54.32 yuan, total 153.08 yuan',
    );
    const link = document.querySelector('[data-testid="order-link-11"]') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/report/components/session?id=11');
    expect(document.body.textContent).toContain('East Depot');
    expect(document.body.textContent).toContain('Unpaid');
    // The end reason (OCPP EVDisconnected) by its label, never the code.
    expect(document.body.textContent).toContain('Vehicle disconnected');
    expect(document.body.textContent).not.toContain('EVDisconnected');
  });

  it("asks for the period in the address instead (the home page's today's orders)", async () => {
    const { calls } = stubApi({
      ...dictionaryRoutes(BILLING_DICTIONARIES),
      'GET /api/chargingOrder/options': () => ({ stations: [], piles: [], guns: [] }),
      'GET /api/chargingOrder/page/1/size/20': () => answer,
    });
    await renderInApp(<OrderQueryPage />, {
      url: '/operation/orderManage/orderQuery?start=2026-11-21T16:00:00.000Z&end=2026-11-22T15:59:59.000Z',
    });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chargingOrder/page/1/size/20')).toBe(true));
    const first = calls.find((c) => c.path === '/api/chargingOrder/page/1/size/20')!;
    expect(Date.parse(first.query.get('start')!)).toBe(Date.parse('2026-11-22T00:00:00+08:00'));
    expect(Date.parse(first.query.get('end')!)).toBe(Date.parse('2026-11-22T23:59:59+08:00'));
  });
});
