// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chargingGuns, kilowattHours, SCREEN_TOTALS, todayRange, type TotalKey } from './screenTotals';
import { applyBusinessTimeZone } from '../app/format/businessTime';
import { withBrowserTimeZone } from '../test/browserTimeZone';

withBrowserTimeZone('UTC');

const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

const guns = (charging: number) => ({
  guns: { available: 1, charging, faulted: 0 } as unknown as Record<string, number>,
});

describe('big screen totals', () => {
  it('every tile has a source with the permission its API checks (none is a placeholder)', () => {
    expect(Object.fromEntries(SCREEN_TOTALS.map((t) => [t.key, t.source?.permission]))).toEqual({
      organizations: 'sys:org:query',
      users: 'sys:user:query',
      pricePlans: 'price_plan:view',
      stations: 'basic:station:query',
      piles: 'basic:host:query',
      guns: 'basic:gun:query',
      chargingNow: 'operation:stationMonitor',
      energyToday: 'charging_order:view',
    });
  });

  it('reads stations, piles and guns from page 1 of size 1, charging now from the monitor, energy from the orders', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://console.test');
        urls.push(`${url.pathname}${url.search}`);
        if (url.pathname === '/api/station/page/1/size/1') return answer({ list: [{}], total: 4 });
        if (url.pathname === '/api/pile/page/1/size/1') return answer({ list: [{}], total: 12 });
        if (url.pathname === '/api/gun/page/1/size/1') return answer({ list: [{}], total: 24 });
        if (url.pathname === '/api/monitor/station/list') return answer([guns(3), guns(0), guns(2)]);
        if (url.pathname === '/api/chargingOrder/page/1/size/1')
          return answer({ list: [], total: 7, totals: { count: 7, energyWh: 123_456 } });
        return new Response(null, { status: 404 });
      }),
    );
    const load = (key: TotalKey) =>
      SCREEN_TOTALS.find((t) => t.key === key)!.source!.load(new AbortController().signal);
    expect(await load('stations')).toBe(4);
    expect(await load('piles')).toBe(12);
    expect(await load('guns')).toBe(24);
    expect(await load('chargingNow')).toBe(5);
    expect(await load('energyToday')).toBe(123.5);
    const orders = urls.find((u) => u.startsWith('/api/chargingOrder/'))!;
    const { start, end } = todayRange(new Date());
    expect(new URLSearchParams(orders.split('?')[1]).get('start')).toBe(start);
    expect(new URLSearchParams(orders.split('?')[1]).get('end')).toBe(end);
  });

  it('today is the business day (Asia/Shanghai), whatever the browser zone', () => {
    // 2025-03-01 17:30 UTC is already 2 March in Shanghai.
    expect(todayRange(new Date('2025-03-01T17:30:00Z'))).toEqual({
      start: '2025-03-02T00:00:00+08:00',
      end: '2025-03-02T23:59:59+08:00',
    });
    expect(todayRange(new Date('2025-03-01T15:59:59Z'))).toEqual({
      start: '2025-03-01T00:00:00+08:00',
      end: '2025-03-01T23:59:59+08:00',
    });
  });

  it('today follows the business time zone of the platform settings', () => {
    applyBusinessTimeZone('America/Argentina/Buenos_Aires');
    try {
      expect(todayRange(new Date('2025-03-02T02:00:00Z'))).toEqual({
        start: '2025-03-01T00:00:00-03:00',
        end: '2025-03-01T23:59:59-03:00',
      });
    } finally {
      applyBusinessTimeZone(undefined);
    }
  });

  it('sums charging guns and shows kWh with one decimal', () => {
    expect(chargingGuns([])).toBe(0);
    expect(chargingGuns([guns(1), guns(4)] as never)).toBe(5);
    expect(kilowattHours(0)).toBe(0);
    expect(kilowattHours(1_049)).toBe(1);
    expect(kilowattHours(1_050)).toBe(1.1);
  });
});
