import type { ChargingOrderRow } from '@voltdepot/console-api-client';
import type { MonitorGunView, MonitorPileView } from '@voltdepot/shared-contracts';
import type { FakeDictionaries } from './fakeApi';

/** The dictionaries the billing screens read (names in English, as the seeded dictionaries' en-US). */
export const BILLING_DICTIONARIES: FakeDictionaries = {
  charging_period_type: [
    ['valley', 'Valley'],
    ['normal', 'Normal'],
    ['peak', 'Peak'],
    ['sharp', 'Sharp'],
    ['deepValley', 'Deep valley'],
  ],
  pay_status: [
    ['0', 'Unpaid'],
    ['1', 'Paid'],
    ['3', 'Abnormal'],
  ],
  order_status: [
    ['unpaid', 'Unpaid'],
    ['paid', 'Paid'],
    ['refund', 'Refund'],
    ['abnormal', 'Abnormal'],
    ['unsettled', 'Unsettled'],
  ],
  approval_status: [
    ['pending', 'Pending'],
    ['audited', 'Audited'],
    ['rejected', 'Rejected'],
  ],
  client_type: [
    ['1', 'Personal'],
    ['2', 'Group'],
    ['3', 'Group external card'],
  ],
  start_type: [
    ['0', 'Until full'],
    ['1', 'By time'],
    ['2', 'By percent'],
    ['3', 'By amount'],
    ['4', 'By energy'],
  ],
};

/** A gun of the monitoring views, idle unless overridden. */
export function aGun(overrides: Partial<MonitorGunView> = {}): MonitorGunView {
  return {
    gunId: 11,
    name: 'Gun 1',
    connectorId: 1,
    status: 'idle',
    ocppStatus: 'Available',
    errorCode: 'NoError',
    info: null,
    since: '2025-03-01T08:00:00.000Z',
    transactionId: null,
    idTag: null,
    sessionStartedAt: null,
    powerW: null,
    energyWh: null,
    soc: null,
    sampledAt: null,
    vehicle: null,
    ...overrides,
  };
}

/** A pile of the monitoring views with two idle guns, online unless overridden. */
export function aPile(overrides: Partial<MonitorPileView> = {}): MonitorPileView {
  return {
    pileId: 5,
    chargePointId: 'CP-1',
    name: 'Pile 1',
    number: 'P1',
    stationId: 3,
    stationName: 'North Yard',
    deviceStatus: 50,
    online: true,
    onlineSince: '2025-03-01T07:00:00.000Z',
    lastSeenAt: '2025-03-01T08:00:00.000Z',
    vendor: 'Voltdepot',
    model: 'DC-240',
    firmwareVersion: '1.0',
    ocppStatus: 'Available',
    guns: [aGun(), aGun({ gunId: 12, name: 'Gun 2', connectorId: 2 })],
    ...overrides,
  };
}

/** A settled, billed order of the billing lists (East Depot, Pile 3, Gun 1), with overrides. */
export function aChargingOrder(overrides: Partial<ChargingOrderRow> = {}): ChargingOrderRow {
  return {
    id: 11,
    orderNo: 'CP1-20261121-000042',
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
    vehicleId: null,
    vehiclePlate: null,
    vehicleVin: null,
    startedAt: '2026-11-21T12:00:00.000Z',
    stoppedAt: '2026-11-21T14:00:00.000Z',
    durationSeconds: 7200,
    energyWh: 123_456,
    startSoc: 30,
    endSoc: 95,
    electricityFen: 9_876,
    serviceFen: 5_432,
    totalFen: 15_308,
    discountFen: 0,
    payStatus: 0,
    orderStatus: 'unpaid',
    reviewStatus: null,
    abnormalReasons: [],
    endReason: 'EVDisconnected',
    stopKind: 'normal',
    startMode: 0,
    settledAt: '2026-11-21T14:00:01.000Z',
    version: 1,
    occupationOrderId: null,
    occupationOrderNo: null,
    occupationFeeFen: null,
    ...overrides,
  };
}
