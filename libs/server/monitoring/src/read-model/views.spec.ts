import { gunStatusOf } from './gun-status';
import type { StoredCardSession, StoredPile } from './read-model.store';
import { connectionState, pileState, sessionEnergy, statusRun, vehicleChargeState } from './views';

let seq = 0;
const entry = (at: string, data: object) =>
  `${at}|${String(++seq).padStart(15, '0')}|${JSON.stringify(data)}`;
const status = (at: string, s: string, e = 'NoError') => entry(at, { s, e, i: null });
const conn = (at: string, k: 'c' | 'd', s: string) => entry(at, { k, s, r: 'replica-a' });

describe('gun status (business-areas §4)', () => {
  it.each([
    ['Available', 'idle'],
    ['Reserved', 'reservation'],
    ['Preparing', 'connected'],
    ['Charging', 'charging'],
    ['SuspendedEV', 'charging'],
    ['SuspendedEVSE', 'charging'],
    ['Finishing', 'stopCharging'],
    ['Faulted', 'fault'],
    ['Unavailable', 'offline'],
    ['Nonsense', 'offline'],
  ])('OCPP %s is %s', (ocpp, spec) => expect(gunStatusOf(ocpp)).toBe(spec));
});

describe('connection state', () => {
  it('is offline with nothing known', () =>
    expect(connectionState([])).toEqual({ online: false, since: null }));

  it('follows connect and disconnect of the same connection', () => {
    const history = [
      conn('2025-01-01T08:00:00.000Z', 'c', 'cp:s1'),
      conn('2025-01-01T09:00:00.000Z', 'd', 'cp:s1'),
    ];
    expect(connectionState(history)).toEqual({ online: false, since: '2025-01-01T09:00:00.000Z' });
    expect(connectionState(history.slice(0, 1))).toEqual({ online: true, since: '2025-01-01T08:00:00.000Z' });
  });

  it('ignores the late disconnection of a connection the pile already replaced', () => {
    const history = [
      conn('2025-01-01T08:00:00.000Z', 'c', 'cp:s1'),
      conn('2025-01-01T08:05:00.000Z', 'c', 'cp:s2'),
      conn('2025-01-01T08:05:01.000Z', 'd', 'cp:s1'),
    ];
    expect(connectionState(history)).toEqual({ online: true, since: '2025-01-01T08:00:00.000Z' });
  });
});

describe('status run', () => {
  it('dates a status from the first of its unbroken run', () => {
    const newestFirst = [
      status('2025-01-01T10:10:00.000Z', 'SuspendedEV'),
      status('2025-01-01T10:05:00.000Z', 'Charging'),
      status('2025-01-01T10:00:00.000Z', 'Charging'),
      status('2025-01-01T09:59:00.000Z', 'Preparing'),
    ];
    // SuspendedEV and Charging are both "charging" to the operator.
    expect(statusRun(newestFirst)).toEqual(
      expect.objectContaining({ since: '2025-01-01T10:00:00.000Z', at: '2025-01-01T10:10:00.000Z' }),
    );
  });
});

describe('session energy', () => {
  it('prefers the stop figure, else the register minus the start', () => {
    expect(sessionEnergy({ energyWh: '5000', meterStartWh: '1', registerWh: '99' })).toBe(5000);
    expect(sessionEnergy({ meterStartWh: '1000', registerWh: '4500' })).toBe(3500);
    expect(sessionEnergy({ meterStartWh: '1000', meterStopWh: '6000' })).toBe(5000);
    expect(sessionEnergy({ registerWh: '4500' })).toBeNull();
  });
});

function pile(overrides: Partial<StoredPile> = {}): StoredPile {
  return {
    chargePointId: 'CP-1',
    info: { lastSeenAt: '2025-01-01T10:00:00.000Z', vendor: 'V', model: 'M', firmwareVersion: '' },
    connections: [conn('2025-01-01T08:00:00.000Z', 'c', 'CP-1:s1')],
    connectors: [1, 2],
    guns: [
      { connectorId: 0, statuses: [status('2025-01-01T08:00:01.000Z', 'Available')], transaction: null },
      {
        connectorId: 1,
        statuses: [
          status('2025-01-01T09:00:00.000Z', 'Charging'),
          status('2025-01-01T08:59:00.000Z', 'Preparing'),
        ],
        transaction: {
          transactionId: 7,
          fields: {
            idTag: 'BUS0001',
            startedAt: '2025-01-01T08:59:30.000Z',
            meterStartWh: '1000',
            registerWh: '21000',
            'registerWh@': '2025-01-01T09:30:00.000Z',
            powerW: '120000',
            'powerW@': '2025-01-01T09:30:00.000Z',
            soc: '55.5',
            'soc@': '2025-01-01T09:30:00.000Z',
          },
        },
      },
      { connectorId: 2, statuses: [status('2025-01-01T08:00:02.000Z', 'Available')], transaction: null },
    ],
    ...overrides,
  };
}

describe('pile state', () => {
  it('shows a charging gun with its session figures and an idle gun without', () => {
    const state = pileState(pile());
    expect(state.online).toBe(true);
    expect(state.firmwareVersion).toBeNull();
    expect(state.guns).toEqual([
      expect.objectContaining({
        connectorId: 1,
        status: 'charging',
        since: '2025-01-01T09:00:00.000Z',
        transactionId: 7,
        idTag: 'BUS0001',
        powerW: 120000,
        energyWh: 20000,
        soc: 55.5,
        sampledAt: '2025-01-01T09:30:00.000Z',
      }),
      expect.objectContaining({ connectorId: 2, status: 'idle', transactionId: null, powerW: null }),
    ]);
  });

  it('shows every gun offline, since the pile went away, when the pile is offline', () => {
    const state = pileState(
      pile({
        connections: [
          conn('2025-01-01T08:00:00.000Z', 'c', 'CP-1:s1'),
          conn('2025-01-01T11:00:00.000Z', 'd', 'CP-1:s1'),
        ],
      }),
    );
    expect(state.guns.map((g) => [g.status, g.since, g.powerW])).toEqual([
      ['offline', '2025-01-01T11:00:00.000Z', null],
      ['offline', '2025-01-01T11:00:00.000Z', null],
    ]);
  });

  it('lets a fault of the whole pile (connector 0) outrank its guns', () => {
    const stored = pile();
    stored.guns[0].statuses = [status('2025-01-01T10:00:00.000Z', 'Faulted', 'GroundFailure')];
    expect(pileState(stored).guns.map((g) => g.status)).toEqual(['fault', 'fault']);
  });

  it('reports power 0 and the final energy once the session stopped (gun finishing)', () => {
    const stored = pile();
    stored.guns[1].statuses = [status('2025-01-01T10:00:00.000Z', 'Finishing'), ...stored.guns[1].statuses];
    Object.assign(stored.guns[1].transaction!.fields, {
      stoppedAt: '2025-01-01T10:00:00.000Z',
      energyWh: '20500',
    });
    expect(pileState(stored).guns[0]).toEqual(
      expect.objectContaining({ status: 'stopCharging', powerW: 0, energyWh: 20500 }),
    );
  });
});

describe('vehicle charging status (business-areas §4, §9 low SoC)', () => {
  const now = new Date('2025-01-02T00:00:00.000Z');
  const inService = { operational: true };
  const outOfService = { operational: false };
  const session = (fields: Record<string, string>, latest: number | null = 7): StoredCardSession => ({
    idTag: 'BUS0001',
    chargePointId: 'CP-1',
    rankedAt: Date.parse(fields['startedAt'] ?? '2025-01-01T20:00:00.000Z'),
    transaction: { transactionId: 7, fields },
    gunLatestTransactionId: latest,
  });

  it('has no session: uncharged, SoC unknown, not low, in service or not', () => {
    for (const operation of [inService, outOfService]) {
      expect(vehicleChargeState([], operation, now)).toEqual(
        expect.objectContaining({ chargeStatus: 'uncharged', soc: null, lowSoc: false, powerW: null }),
      );
    }
  });

  it('is a parking charge while its session runs out of service, low below 30 %', () => {
    const state = vehicleChargeState(
      [session({ soc: '29.9', 'soc@': 'x', powerW: '1000', energyWh: '2500' })],
      outOfService,
      now,
    );
    expect(state).toEqual(
      expect.objectContaining({
        chargeStatus: 'parkingCharge',
        lowSoc: true,
        soc: 29.9,
        socAt: 'x',
        powerW: 1000,
        energyWh: 2500,
      }),
    );
    expect(vehicleChargeState([session({ soc: '30' })], outOfService, now).lowSoc).toBe(false);
  });

  it('is a driving charge while its session runs in service, with the same figures', () => {
    const fields = { soc: '29.9', 'soc@': 'x', powerW: '1000', energyWh: '2500' };
    const driving = vehicleChargeState([session(fields)], inService, now);
    const parking = vehicleChargeState([session(fields)], outOfService, now);
    expect(driving.chargeStatus).toBe('drivingCharge');
    expect({ ...driving, chargeStatus: 'parkingCharge' }).toEqual(parking);
  });

  it('has no power yet for a running session without a sample, in service or not', () => {
    expect(vehicleChargeState([session({})], inService, now)).toEqual(
      expect.objectContaining({ chargeStatus: 'drivingCharge', powerW: null, soc: null }),
    );
    expect(vehicleChargeState([session({})], outOfService, now).powerW).toBeNull();
  });

  it('is complete for 12 h after a normal stop, uncharged after an abnormal one or later, in service or not', () => {
    for (const operation of [inService, outOfService]) {
      const stopped = (at: string, kind: string) =>
        vehicleChargeState(
          [session({ stoppedAt: at, stopKind: kind, soc: '95', powerW: '1000' })],
          operation,
          now,
        );
      expect(stopped('2025-01-01T13:00:00.000Z', 'normal')).toEqual(
        expect.objectContaining({ chargeStatus: 'complete', powerW: 0 }),
      );
      expect(stopped('2025-01-01T11:59:00.000Z', 'normal').chargeStatus).toBe('uncharged');
      expect(stopped('2025-01-01T23:00:00.000Z', 'abnormal').chargeStatus).toBe('uncharged');
    }
  });

  it('does not stay charging when its gun has moved on to another session (the stop was never heard)', () => {
    for (const operation of [inService, outOfService]) {
      expect(vehicleChargeState([session({ soc: '50', powerW: '1000' }, 8)], operation, now)).toEqual(
        expect.objectContaining({ chargeStatus: 'uncharged', powerW: null }),
      );
    }
  });

  it("takes the latest of its cards' sessions", () => {
    const older = session({ startedAt: '2025-01-01T08:00:00.000Z', stoppedAt: '2025-01-01T09:00:00.000Z' });
    const current = {
      ...session({ startedAt: '2025-01-01T21:00:00.000Z', powerW: '80000' }),
      idTag: 'BUS0002',
    };
    expect(vehicleChargeState([older, current], inService, now)).toEqual(
      expect.objectContaining({ chargeStatus: 'drivingCharge', powerW: 80_000, session: current }),
    );
  });
});
