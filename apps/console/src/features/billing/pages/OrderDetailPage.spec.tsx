import { act, fireEvent } from '@testing-library/react';
import type { ChargingOrderDetail } from '@voltdepot/console-api-client';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { dictionaryRoutes } from '../../../test/fakeApi';
import { BILLING_DICTIONARIES } from '../../../test/fixtures';
import { OrderDetailPage } from './OrderDetailPage';

const detail: ChargingOrderDetail = {
  id: 21,
  orderNo: 'CO20261121ABCDEF120000000042',
  chargePointId: 'CP1',
  connectorId: 1,
  transactionId: 42,
  stationId: 1,
  stationName: 'East Depot',
  pileId: 3,
  pileName: 'Pile 3',
  gunId: 5,
  gunName: 'Gun 1',
  idTag: 'BUS0001',
  cardSelfNumber: 'CBUS0001',
  vehicleId: 7,
  vehiclePlate: '闽A12345',
  vehicleVin: 'LVDE2E00000000001',
  startedAt: '2026-11-21T12:00:00.000Z',
  stoppedAt: '2026-11-21T14:00:00.000Z',
  durationSeconds: 7200,
  energyWh: 480_000,
  startSoc: 80,
  endSoc: 40,
  electricityFen: 0,
  serviceFen: 0,
  totalFen: 0,
  discountFen: 0,
  payStatus: 3,
  orderStatus: 'abnormal',
  reviewStatus: 'pending',
  abnormalReasons: ['beyondCapacity', 'socFalling'],
  endReason: 'EVDisconnected',
  stopKind: 'normal',
  startMode: 2,
  settledAt: '2026-11-21T14:00:01.000Z',
  version: 1,
  occupationOrderId: 9,
  occupationOrderNo: 'OC20261121ABCDEF120000000042',
  occupationFeeFen: 1_500,
  meterStartWh: 1_000_000,
  meterStopWh: 1_480_000,
  pricePlanId: null,
  pricePlanName: null,
  discountPlanId: null,
  discountPlanName: null,
  electricityDiscountFen: 0,
  serviceDiscountFen: 0,
  totalWithOccupationFen: 1_500,
  bands: [],
  energySeries: [],
  powerSeries: [],
  socSeries: [],
  review: null,
  log: [],
  abandonRule: null,
  versions: [
    {
      version: 1,
      kind: 'settled',
      at: '2026-11-21T14:00:01.000Z',
      by: null,
      reason: null,
      meterStopWh: 1_480_000,
      energyWh: 480_000,
      totalFen: 0,
      payStatus: 3,
      energyDeltaWh: 0,
      totalDeltaFen: 0,
    },
  ],
  repeatStops: [],
};

/** A lost stop: held when the gateway closed it, completed by its real stop, then amended. */
const lostStop: ChargingOrderDetail = {
  ...detail,
  abnormalReasons: ['stopMissing', 'repeatedStop'],
  abandonRule: 'connectorIdle',
  version: 3,
  payStatus: 0,
  orderStatus: 'unpaid',
  totalFen: 1_208,
  versions: [
    { ...detail.versions[0], energyWh: 7_500, meterStopWh: 1_007_500 },
    {
      version: 2,
      kind: 'completed',
      at: '2026-11-21T15:00:00.000Z',
      by: 'system',
      reason: 'StopTransaction (PowerLoss) of a session closed by rule connectorIdle',
      meterStopWh: 1_010_000,
      energyWh: 10_000,
      totalFen: 1_200,
      payStatus: 0,
      energyDeltaWh: 2_500,
      totalDeltaFen: 1_200,
    },
    {
      version: 3,
      kind: 'amended',
      at: '2026-11-22T09:00:00.000Z',
      by: 'operator',
      reason: 'the later stop read 10.072 kWh',
      meterStopWh: 1_010_072,
      energyWh: 10_072,
      totalFen: 1_208,
      payStatus: 0,
      energyDeltaWh: 72,
      totalDeltaFen: 8,
    },
  ],
  repeatStops: [
    {
      stoppedAt: '2026-11-21T15:01:00.000Z',
      meterStopWh: 1_010_072,
      reason: 'Remote',
      disagrees: true,
      receivedAt: '2026-11-21T15:01:02.000Z',
    },
  ],
};

const text = () => document.body.textContent ?? '';

describe('OrderDetailPage', { timeout: 120_000 }, () => {
  it.each([
    ['en-US', 'By percent', ['Electricity not matching meter', 'Start and end SOC error']],
    ['zh-CN', '按百分比', ['电量与电表不符', '起止SOC错误']],
  ] as const)(
    '%s: the exception types, the start mode and the occupation fee with its link and the total',
    async (locale, startMode, types) => {
      stubApi({
        ...dictionaryRoutes(BILLING_DICTIONARIES),
        'GET /api/chargingOrder/21': () => detail,
      });
      await renderInApp(<OrderDetailPage />, {
        locale,
        url: '/report/components/session?id=21',
      });
      await waitFor(() => expect(document.querySelector('[data-testid="order-detail"]')).not.toBeNull());
      const tags = [...document.querySelectorAll('[data-testid="abnormal-type"]')].map((e) => e.textContent);
      expect(tags).toEqual(types);
      // Each reason in the user's language, never its code.
      const reasons = [...document.querySelectorAll('[data-testid="abnormal-reason"]')].map(
        (e) => e.textContent,
      );
      expect(reasons).toEqual(
        locale === 'en-US'
          ? ['Energy beyond battery capacity', 'The start SOC is above the end SOC']
          : ['电量超出电池容量', '开始 SOC 高于结束 SOC'],
      );
      await waitFor(() => expect(document.body.textContent).toContain(startMode));
      // The end reason (OCPP EVDisconnected) by its label, never the code.
      expect(text()).toContain(locale === 'en-US' ? 'Vehicle disconnected' : '车辆断开连接');
      expect(text()).not.toContain('EVDisconnected');
      const link = document.querySelector('[data-testid="order-occupation-link"]') as HTMLAnchorElement;
      expect(link.getAttribute('href')).toBe(
        '/operation/orderManage/occupationOrder?orderNo=OC20261121ABCDEF120000000042',
      );
      expect(link.textContent).toBe('15.00');
      expect(document.querySelector('[data-testid="order-total-with-occupation"]')?.textContent).toBe(
        '15.00',
      );
    },
  );

  it('shows why a lost stop was closed, every version with its difference and the repeated stops', async () => {
    stubApi({ ...dictionaryRoutes(BILLING_DICTIONARIES), 'GET /api/chargingOrder/21': () => lostStop });
    await renderInApp(<OrderDetailPage />, { url: '/report/components/session?id=21' });
    await waitFor(() => expect(document.querySelector('[data-testid="order-versions"]')).not.toBeNull());
    expect(document.querySelector('[data-testid="order-abandoned"]')?.textContent).toBe(
      'The pile never stopped the session: the gateway closed it because the connector idle too long',
    );
    const rows = [...document.querySelectorAll('[data-testid="order-versions"] tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(rows.map((r) => [r[0], r[1], r[3], r[7], r[9], r[10]])).toEqual([
      ['1', 'Settled', '-', '0.00', '0.000', '0.00'],
      ['2', 'Completed by its real stop', 'system', '12.00', '+2.500', '+12.00'],
      ['3', 'Amended', 'operator', '12.08', '+0.072', '+0.08'],
    ]);
    const repeat = document.querySelector('[data-testid="order-repeat-stops"] tbody tr')?.textContent ?? '';
    expect(repeat).toContain('1010.072');
    expect(repeat).toContain('Remote stop'); // the OCPP reason Remote, labelled
    expect(repeat).toContain('Differs from the billed stop');
    expect(text()).toContain('The pile never stopped the session: closed by rule');
    expect(text()).toContain('A second, different stop for the same transaction');
  });

  it('amends the order: shows the difference before saving, then saves it once with a request id', async () => {
    const { calls } = stubApi({
      ...dictionaryRoutes(BILLING_DICTIONARIES),
      'GET /api/chargingOrder/21': () => lostStop,
      'GET /api/chargingOrder/21/amend/preview': (r) => ({
        version: 4,
        current: {
          meterStopWh: 1_010_072,
          energyWh: 10_072,
          electricityFen: 1_007,
          serviceFen: 201,
          totalFen: 1_208,
          payStatus: 0,
        },
        amended: {
          meterStopWh: Number(r.query.get('meterStopWh')),
          energyWh: 10_500,
          electricityFen: 1_050,
          serviceFen: 210,
          totalFen: 1_260,
          payStatus: 0,
        },
        difference: { meterStopWh: 428, energyWh: 428, electricityFen: 43, serviceFen: 9, totalFen: 52 },
      }),
      'POST /api/chargingOrder/21/amend': () => ({ ...lostStop, version: 4 }),
    });
    await renderInApp(<OrderDetailPage />, { url: '/report/components/session?id=21' });
    await waitFor(() => expect(document.querySelector('[data-testid="order-amend"]')).not.toBeNull());
    await act(async () =>
      (document.querySelector('[data-testid="order-amend"]') as HTMLButtonElement).click(),
    );
    await waitFor(() => expect(document.querySelector('.ant-modal')).not.toBeNull());
    const value = document.querySelector('input[aria-label="New value (kW·h)"]') as HTMLInputElement;
    await act(async () => {
      fireEvent.change(value, { target: { value: '1010.5' } });
    });
    await waitFor(() =>
      expect(
        [...document.querySelectorAll('[data-testid="amend-difference"]')].map((e) => e.textContent),
      ).toEqual(['+0.428', '+0.428', '+0.52', '']),
    );
    expect(calls.find((c) => c.path.endsWith('/amend/preview'))?.query.get('meterStopWh')).toBe('1010500');
    const reason = document.querySelector('.ant-modal textarea') as HTMLTextAreaElement;
    await act(async () => {
      fireEvent.change(reason, { target: { value: ' meter read on site ' } });
    });
    const ok = [...document.querySelectorAll('.ant-modal-footer button')].find((b) =>
      /OK|确/.test(b.textContent ?? ''),
    ) as HTMLButtonElement;
    await act(async () => ok.click());
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      meterStopWh: 1_010_500,
      reason: 'meter read on site',
      requestId: expect.stringMatching(/^[A-Za-z0-9._:-]{8,100}$/),
    });
    await waitFor(() => expect(text()).toContain('Amended: version 4'));
  });
});
