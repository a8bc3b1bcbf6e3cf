import type { MonitorStationView } from '@voltdepot/shared-contracts';
import { formatDuration, formatEnergy, formatPower, formatSoc } from './format';
import { applyToPilePage, applyToStation, countGuns, GUN_STATUS_COLORS, stationColor } from './liveState';
import { aGun, aPile } from '../../test/fixtures';

const station = (): MonitorStationView => {
  const piles = [
    aPile(),
    aPile({ chargePointId: 'CP-2', online: false, guns: [aGun({ status: 'offline' })] }),
  ];
  return {
    id: 3,
    number: 'S3',
    name: 'North Yard',
    address: 'Road 1',
    longitude: 119.3,
    latitude: 26.07,
    status: 0,
    pilesOnline: 1,
    pilesTotal: 2,
    guns: countGuns(piles),
    piles,
  };
};

describe('applying a push', () => {
  it('replaces the pushed pile and counts the guns again', () => {
    const charging = aPile({
      guns: [aGun({ status: 'charging', powerW: 120_000 }), aGun({ connectorId: 2, status: 'fault' })],
    });
    const next = applyToStation(station(), {
      stationId: 3,
      at: '2025-03-01T09:00:00.000Z',
      piles: [charging],
    });
    expect(next.piles[0]).toBe(charging);
    expect(next.piles[1].chargePointId).toBe('CP-2');
    expect(next.guns).toEqual({
      idle: 0,
      reservation: 0,
      connected: 0,
      charging: 1,
      stopCharging: 0,
      fault: 1,
      offline: 1,
    });
    expect(next.pilesOnline).toBe(1);
  });

  it("leaves a station alone when the push is another station's, and ignores piles it does not show", () => {
    const view = station();
    expect(applyToStation(view, { stationId: 4, at: '', piles: [aPile()] })).toBe(view);
    const page = { list: [aPile()], total: 1 };
    const next = applyToPilePage(page, { stationId: 3, at: '', piles: [aPile({ chargePointId: 'CP-9' })] });
    expect(next.list).toEqual(page.list);
  });

  it('colours a station by trouble first, then activity', () => {
    const counts = countGuns([aPile()]);
    expect(stationColor(counts)).toBe(GUN_STATUS_COLORS.idle);
    expect(stationColor({ ...counts, charging: 1 })).toBe(GUN_STATUS_COLORS.charging);
    expect(stationColor({ ...counts, charging: 1, fault: 1 })).toBe(GUN_STATUS_COLORS.fault);
    expect(stationColor({ ...counts, idle: 0, offline: 2 })).toBe(GUN_STATUS_COLORS.offline);
  });
});

describe('formats', () => {
  it('shows power in kW, energy in kWh, SoC in percent, and a dash when unknown', () => {
    expect(formatPower(120_450)).toBe('120.5 kW');
    expect(formatEnergy(12_345)).toBe('12.35 kWh');
    expect(formatSoc(24.56)).toBe('24.6%');
    expect([formatPower(null), formatEnergy(undefined), formatSoc(null)]).toEqual(['-', '-', '-']);
  });

  it('says how long a state has lasted', () => {
    const now = Date.parse('2025-03-01T10:00:00.000Z');
    expect(formatDuration('2025-03-01T09:59:45.000Z', now)).toBe('15s');
    expect(formatDuration('2025-03-01T09:18:00.000Z', now)).toBe('42m');
    expect(formatDuration('2025-03-01T06:55:00.000Z', now)).toBe('3h 05m');
    expect(formatDuration(null, now)).toBe('');
  });
});
