import type { MonitorStationSummary, MonitorStationView } from '@voltdepot/shared-contracts';
import { act } from 'react';
import { sessionStore } from '../../../request';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { countGuns } from '../liveState';
import { renderInApp } from '../../../test/renderInApp';
import { aGun, aPile } from '../../../test/fixtures';
import { fakeStomp } from '../../../test/fakeStomp';
import { StationMonitorPage } from './StationMonitorPage';

const pile = aPile();
const view: MonitorStationView = {
  id: 3,
  number: 'S3',
  name: 'North Yard',
  address: 'Road 1',
  longitude: 119.3,
  latitude: 26.07,
  status: 0,
  pilesOnline: 1,
  pilesTotal: 1,
  guns: countGuns([pile]),
  piles: [pile],
};
const summaries: MonitorStationSummary[] = [
  (({ piles: _piles, ...summary }) => summary)(view),
  { ...(({ piles: _piles, ...summary }) => summary)(view), id: 4, name: 'South Yard', latitude: 26.0 },
];

describe('station monitoring page', () => {
  beforeEach(() => sessionStore.set({ accessToken: 'token-1', expires: Date.now() + 60_000 }));
  afterEach(() => sessionStore.clear());

  it("shows the chosen station's gun cards and applies live changes without reading again", async () => {
    const stomp = fakeStomp();
    const { calls } = stubApi({
      'GET /api/monitor/station/list': () => summaries,
      'GET /api/monitor/station/3': () => view,
      // The station record (basic data): no site plan yet.
      'GET /api/station/3': () => ({ id: 3, sitePlanPictureId: null, areaSqm: null }),
    });
    const { container, unmount } = await renderInApp(<StationMonitorPage />, {
      url: '/operation/stationMonitor?station=3',
    });
    const gun1 = () => container.querySelector<HTMLElement>('[data-testid="gun-card-CP-1-1"]');
    await waitFor(() => expect(gun1()?.dataset['status']).toBe('idle'), 30_000);
    // No tile source configured: the offline base map.
    expect(container.querySelector<HTMLElement>('[data-testid="station-map"]')?.dataset['baseMap']).toBe(
      'offline',
    );
    expect(container.textContent).toContain('Offline base map (province and city boundaries)');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/station/3')).toBe(true));
    expect(container.querySelector('[data-testid="station-site-plan"]')).toBeNull();

    await act(async () => stomp.connect());
    // Every station on the map is watched, for its marker.
    expect(stomp.subscriptions.map((s) => s.destination)).toEqual([
      '/topic/monitor/station/3',
      '/topic/monitor/station/4',
    ]);
    const reads = calls.length;
    const charging = aPile({
      guns: [
        aGun({ status: 'charging', powerW: 120_000, energyWh: 5_000, transactionId: 1 }),
        aPile().guns[1],
      ],
    });
    await act(async () =>
      stomp.subscriptions[0].deliver(
        JSON.stringify({ stationId: 3, at: new Date().toISOString(), piles: [charging] }),
      ),
    );
    await waitFor(() => expect(gun1()?.dataset['status']).toBe('charging'));
    expect(gun1()?.querySelector('[data-testid="gun-power"]')?.textContent).toBe('120.0 kW');
    expect(container.querySelector('[data-testid="legend-charging"]')?.textContent).toBe('Charging 1');
    expect(calls.length).toBe(reads);
    unmount();
  }, 90_000);
});
