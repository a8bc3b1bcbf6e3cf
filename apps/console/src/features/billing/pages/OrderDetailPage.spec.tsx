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
  abnormalReasons: [
    "electricity not matching meter: energy beyond battery capacity (480000 Wh > 120 % of 闽A12345's 350000 Wh)",
    'start and end SOC error: start SoC 80 % is above end SoC 40 %',
  ],
  endReason: 'EVDisconnected',
  stopKind: 'normal',
  startMode: 2,
  settledAt: '2026-11-21T14:00:01.000Z',
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
};

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
      await waitFor(() => expect(document.body.textContent).toContain(startMode));
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
});
