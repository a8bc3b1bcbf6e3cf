import { PileEvents } from '@voltdepot/server-testing';
import type { EntityManager } from 'typeorm';
import { orderNumber } from '../settlement/order-number';
import type {
  OccupationOrderRecord,
  OccupationRelease,
  OccupationStop,
  PileFeeSettings,
  StopOutcome,
} from './occupation.repository';
import { OccupationService, type OccupationStore } from './occupation.service';

type StoredStop = OccupationStop & { releasedAt: Date | null; outcome: StopOutcome | null };

/** The occupation tables: stops (once per transaction), releases, orders, and the piles' fee settings. */
class FakeOccupation implements OccupationStore {
  readonly stops = new Map<string, StoredStop>();
  readonly releases: OccupationRelease[] = [];
  readonly orders: OccupationOrderRecord[] = [];
  readonly settings = new Map<string, PileFeeSettings>();

  async feeSettingsOf(_m: EntityManager, chargePointIds: string[]) {
    return new Map([...this.settings].filter(([cp]) => chargePointIds.includes(cp)));
  }
  async lockChargePoints() {}
  async recordStops(_m: EntityManager, stops: OccupationStop[]) {
    for (const stop of stops) this.keep({ ...stop, releasedAt: null, outcome: null });
  }
  async recordClosedStops(
    _m: EntityManager,
    closed: { stop: OccupationStop; releasedAt: Date | null; outcome: StopOutcome }[],
  ) {
    for (const { stop, releasedAt, outcome } of closed) this.keep({ ...stop, releasedAt, outcome });
  }
  async recordReleases(_m: EntityManager, releases: OccupationRelease[]) {
    this.releases.push(...releases);
  }
  async openStops(_m: EntityManager, connectors: { chargePointId: string; connectorId: number }[]) {
    const of = (s: OccupationStop) =>
      connectors.some((c) => c.chargePointId === s.chargePointId && c.connectorId === s.connectorId);
    return [...this.stops.values()]
      .filter((s) => s.outcome === null && of(s))
      .map(({ outcome: _outcome, ...stop }) => {
        const gun = this.releases.filter(
          (r) => r.chargePointId === stop.chargePointId && r.connectorId === stop.connectorId,
        );
        const after = gun.filter((r) => r.at >= stop.stoppedAt).map((r) => r.at.getTime());
        const before = gun
          .filter((r) => r.at < stop.stoppedAt)
          .sort((a, b) => b.at.getTime() - a.at.getTime())[0];
        return {
          ...stop,
          releasedAt: after.length ? new Date(Math.min(...after)) : null,
          releasedBefore: before ? { at: before.at, status: before.status } : null,
        };
      });
  }
  async insertOrders(_m: EntityManager, orders: OccupationOrderRecord[]) {
    this.orders.push(...orders);
  }
  async resolveStops(
    _m: EntityManager,
    resolved: { stop: OccupationStop; releasedAt: Date; outcome: StopOutcome }[],
  ) {
    for (const { stop, releasedAt, outcome } of resolved) {
      const stored = this.stops.get(key(stop));
      if (stored?.outcome === null) Object.assign(stored, { releasedAt, outcome });
    }
  }
  async pruneReleases() {}

  outcomeOf(cp: string, transactionId: number) {
    return this.stops.get(`${cp}:${transactionId}`);
  }

  private keep(stop: StoredStop) {
    if (!this.stops.has(key(stop))) this.stops.set(key(stop), stop);
  }
}
const key = (s: { chargePointId: string; transactionId: number }) => `${s.chargePointId}:${s.transactionId}`;

const T0 = Date.parse('2026-11-21T13:00:00Z');
const MINUTE = 60;
/** 30 free minutes, then 1.00 yuan per started 15 minutes, at most 20.00. */
const FEES: PileFeeSettings = {
  enabled: true,
  feeScope: 'external',
  freeMinutes: 30,
  intervalMinutes: 15,
  unitPriceFen: 100,
  cappedAmountFen: 2000,
  stationId: 4,
  organizationId: 2,
};

function setup() {
  const repository = new FakeOccupation();
  const service = new OccupationService(repository);
  const m = {} as EntityManager;
  const pile = (cp: string, settings?: Partial<PileFeeSettings>) => {
    if (settings) repository.settings.set(cp, { ...FEES, ...settings });
    return new PileEvents(cp, T0);
  };
  const stop = (p: PileEvents, transactionId: number, reason = 'Local') =>
    p.stopped(0, { transactionId, meterStopWh: 10_000, reason });
  return { repository, service, m, pile, stop };
}

describe('OccupationService', () => {
  it.each<[string, Partial<PileFeeSettings> | undefined, string, StopOutcome, boolean]>([
    ['at a pile of no station', undefined, 'Local', 'noStation', false],
    ['at a station that charges no occupation fee', { enabled: false }, 'Local', 'disabled', false],
    ['by unplugging the bus (the gun is free at once)', {}, 'EVDisconnected', 'free', true],
  ])('closes a stop %s at once, with no order', async (_case, settings, reason, outcome, releasedAtStop) => {
    const { repository, service, m, pile, stop } = setup();
    const p = pile('CP-1', settings);
    await service.handleBatch([stop(p, 1, reason)], m);
    expect(repository.outcomeOf('CP-1', 1)).toMatchObject({
      outcome,
      releasedAt: releasedAtStop ? new Date(T0) : null,
    });
    expect(repository.orders).toEqual([]);
  });

  it('closes the real stop of an abandoned session at once: the pile was away, not a bus on the gun', async () => {
    const { repository, service, m, pile } = setup();
    const p = pile('CP-1', {});
    // The pile lost power mid-session at T0; the gateway closed the session by rule; back an hour later,
    // the pile reports Available and replays its StopTransaction stamped T0.
    await service.handleBatch([p.status(1, 'Available', 3600)], m);
    await service.handleBatch(
      [p.stopped(0, { transactionId: 5, meterStopWh: 10_000, reason: 'PowerLoss', afterAbandon: true })],
      m,
    );
    expect(repository.outcomeOf('CP-1', 5)).toMatchObject({ outcome: 'free', releasedAt: new Date(T0) });
    expect(repository.orders).toEqual([]);
  });

  it('prices an occupation when the gun is released: started intervals beyond the free minutes', async () => {
    const { repository, service, m, pile, stop } = setup();
    const p = pile('CP-1', {});
    await service.handleBatch([stop(p, 7)], m);
    expect(repository.outcomeOf('CP-1', 7)?.outcome).toBeNull();
    await service.handleBatch([p.status(1, 'Available', 50 * MINUTE)], m);
    expect(repository.orders).toEqual([
      expect.objectContaining({
        orderNo: expect.stringMatching(/^OC/),
        chargingOrderNo: orderNumber('CP-1', 7, new Date(T0), 'Asia/Shanghai'),
        releasedAt: new Date(T0 + 50 * MINUTE * 1000),
        billableIntervals: 2,
        amountFen: 200,
        settings: FEES,
      }),
    ]);
    expect(repository.outcomeOf('CP-1', 7)?.outcome).toBe('charged');
  });

  it('resolves a stop whose release was handled first (statuses and stops travel on two topics)', async () => {
    const { repository, service, m, pile, stop } = setup();
    const p = pile('CP-1', {});
    await service.handleBatch([p.status(1, 'Preparing', 40 * MINUTE)], m);
    await service.handleBatch([stop(p, 8)], m);
    expect(repository.orders).toEqual([
      expect.objectContaining({ releasedAt: new Date(T0 + 40 * MINUTE * 1000), amountFen: 100 }),
    ]);
  });

  it('closes as free an occupation that ended within the free minutes', async () => {
    const { repository, service, m, pile, stop } = setup();
    const p = pile('CP-1', {});
    await service.handleBatch([stop(p, 9), p.status(1, 'Available', 20 * MINUTE)], m);
    expect(repository.outcomeOf('CP-1', 9)?.outcome).toBe('free');
    expect(repository.orders).toEqual([]);
  });

  it.each([
    ['the pile as a whole (connector 0)', 0, 'Available'],
    ['a status that does not free the gun (Finishing)', 1, 'Finishing'],
    ['a status that does not free the gun (Faulted)', 1, 'Faulted'],
  ])('does not end an occupation on %s', async (_case, connectorId, status) => {
    const { repository, service, m, pile, stop } = setup();
    const p = pile('CP-1', {});
    const event = p.status(connectorId, status, 45 * MINUTE);
    expect(service.concerns(event)).toBe(false);
    await service.handleBatch([stop(p, 10), event], m);
    expect(repository.outcomeOf('CP-1', 10)?.outcome).toBeNull();
    expect(repository.releases).toEqual([]);
  });

  it.each<[string, string, number, Date | null]>([
    ['Available at the stop (no Finishing)', 'Available', 0, new Date(T0)],
    ['Available 200 ms before the stop', 'Available', -0.2, new Date(T0)],
    ['Available 60 s before the stop', 'Available', -60, new Date(T0)],
    ['Available 61 s before the stop (another session ago)', 'Available', -61, null],
    ['Charging 10 s before the stop (still at the gun)', 'Charging', -10, null],
  ])('after %s, ends the occupation at %s', async (_case, last, seconds, end) => {
    const { repository, service, m, pile, stop } = setup();
    const p = pile('CP-1', {});
    await service.handleBatch([p.status(1, 'Charging', -3600), p.status(1, last, seconds), stop(p, 11)], m);
    expect(repository.outcomeOf('CP-1', 11)).toMatchObject(
      end ? { outcome: 'free', releasedAt: end } : { outcome: null, releasedAt: null },
    );
  });

  it('keeps no releases of piles whose station charges no occupation fee', async () => {
    const { repository, service, m, pile } = setup();
    const p = pile('CP-2', { enabled: false });
    await service.handleBatch([p.status(1, 'Available', 10)], m);
    expect(repository.releases).toEqual([]);
  });
});
