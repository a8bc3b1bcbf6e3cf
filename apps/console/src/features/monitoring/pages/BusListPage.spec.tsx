import type { MonitorVehiclePage, MonitorVehicleView } from '@voltdepot/shared-contracts';
import { sessionStore } from '../../../request';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { fakeStomp } from '../../../test/fakeStomp';
import { BusListPage } from './BusListPage';

const aBus = (overrides: Partial<MonitorVehicleView>): MonitorVehicleView => ({
  id: 1,
  plate: '闽A·00001',
  vin: 'LVD00000000000001',
  selfNumber: '1001',
  companyName: 'Fuzhou Bus Co.',
  fleetName: 'Fleet 1',
  lineName: 'Line 1',
  batteryCapacityWh: 350_000,
  operational: false,
  chargeStatus: 'uncharged',
  soc: 80,
  socAt: '2025-03-01T08:00:00.000Z',
  lowSoc: false,
  chargePointId: null,
  connectorId: null,
  stationId: null,
  stationName: null,
  powerW: null,
  energyWh: null,
  sessionStartedAt: null,
  sessionEndedAt: null,
  ...overrides,
});

const charging = { chargePointId: 'CP-1', stationId: 3, stationName: 'North Yard', energyWh: 5_000 };
const page: MonitorVehiclePage = {
  list: [
    aBus({
      id: 1,
      operational: true,
      chargeStatus: 'drivingCharge',
      powerW: 120_000,
      connectorId: 1,
      ...charging,
    }),
    aBus({
      id: 2,
      operational: false,
      chargeStatus: 'parkingCharge',
      powerW: 60_000,
      connectorId: 2,
      ...charging,
    }),
  ],
  total: 2,
  summary: { lowSoc: 0, byStatus: { uncharged: 0, parkingCharge: 1, drivingCharge: 1, complete: 0 } },
  stationIds: [3],
};

describe('bus list page', () => {
  beforeEach(() => sessionStore.set({ accessToken: 'token-1', expires: Date.now() + 60_000 }));
  afterEach(() => sessionStore.clear());

  it('shows each bus in service or not, its driving or parking charge with its power, and the counts', async () => {
    fakeStomp();
    stubApi({
      'GET /api/monitor/vehicle/page/1/size/10': () => page,
      'GET /api/dict/type/vehicle_charge_status': () => [],
    });
    const { container, unmount } = await renderInApp(<BusListPage />, { url: '/operation/busList' });
    const text = (testId: string) =>
      container.querySelector(`[data-testid="${testId}"]`)?.textContent ?? undefined;
    await waitFor(() => expect(text('bus-status-1')).toBe('Driving charge'), 30_000);
    expect(text('bus-operational-1')).toBe('In service');
    expect(text('bus-status-2')).toBe('Parking charge');
    expect(text('bus-operational-2')).toBe('Not in service');
    const rows = [...container.querySelectorAll('tr[data-row-key]')].map((r) => r.textContent ?? '');
    expect(rows[0]).toContain('120.0 kW');
    expect(rows[1]).toContain('60.0 kW');
    const summary = text('bus-summary') ?? '';
    expect(summary).toContain('Driving charge 1');
    expect(summary).toContain('Parking charge 1');
    unmount();
  }, 90_000);
});
