import type { OrderVersionEntry, VersionFigures } from './charging-order-query.repository';
import { orderLog, orderSeries, orderVersions } from './order-detail';

const at = (iso: string) => new Date(iso);
const session = { idTag: 'CARD1', meterStartWh: 1_000, startedAt: at('2026-11-20T00:00:00Z') };
const stop = at('2026-11-20T01:00:00Z');
const energy = (iso: string, value: number, flag: string | null = null) => ({
  measurand: 'Energy.Active.Import.Register',
  at: at(iso),
  value,
  flag,
});

describe('orderSeries', () => {
  it('draws energy since the start and the average power of each interval, leaving out flagged samples', () => {
    const series = orderSeries(
      session,
      [
        energy('2026-11-20T00:30:00Z', 31_000),
        energy('2026-11-20T00:40:00Z', 5, 'decreasing'),
        { measurand: 'SoC', at: at('2026-11-20T00:30:00Z'), value: 55, flag: null },
        { measurand: 'SoC', at: at('2026-11-20T00:45:00Z'), value: 140, flag: null },
      ],
      stop,
      46_000,
    );
    expect(series.energySeries).toEqual([
      { at: '2026-11-20T00:00:00.000Z', energyWh: 0 },
      { at: '2026-11-20T00:30:00.000Z', energyWh: 30_000 },
      { at: '2026-11-20T01:00:00.000Z', energyWh: 45_000 },
    ]);
    expect(series.powerSeries).toEqual([
      { at: '2026-11-20T00:30:00.000Z', powerW: 60_000 },
      { at: '2026-11-20T01:00:00.000Z', powerW: 30_000 },
    ]);
    // A SoC outside 0-100 is not drawn.
    expect(series.socSeries).toEqual([{ at: '2026-11-20T00:30:00.000Z', soc: 55 }]);
  });

  it('draws no energy or power without a recorded start, or with a stop before it', () => {
    expect(orderSeries(undefined, [energy('2026-11-20T00:30:00Z', 2_000)], stop, 3_000)).toMatchObject({
      energySeries: [],
      powerSeries: [],
    });
    expect(orderSeries(session, [], at('2026-11-19T23:00:00Z'), 3_000).energySeries).toEqual([]);
  });

  it('skips an interval of no length instead of dividing by zero', () => {
    const series = orderSeries(session, [], session.startedAt, 1_000);
    expect(series.powerSeries).toEqual([]);
    expect(series.energySeries).toHaveLength(2);
  });
});

describe('orderLog', () => {
  it('tells start, stop, hold and review in order, with who decided', () => {
    const log = orderLog({
      session,
      stoppedAt: stop,
      endReason: 'EVDisconnected',
      settledAt: at('2026-11-20T01:00:01Z'),
      totalFen: 1234,
      abnormalReasons: ['socOutOfRange'],
      review: { decision: 'approve', reason: 'ok', reviewer: 'operator', at: at('2026-11-21T08:00:00Z') },
      versions: [],
    });
    expect(log.map((e) => [e.action, e.by, e.detail, e.amountFen])).toEqual([
      ['started', null, 'CARD1', null],
      ['stopped', null, 'EVDisconnected', null],
      ['held', null, null, null],
      ['approved', 'operator', 'ok', 1234],
    ]);
    expect(log[2].reasons).toEqual(['socOutOfRange']);
  });

  it('tells the order as settled, the amount its approval billed and each later version', () => {
    const log = orderLog({
      session,
      stoppedAt: stop,
      endReason: 'PowerLoss',
      settledAt: at('2026-11-20T01:30:00Z'),
      totalFen: 1_500,
      abnormalReasons: ['stopMissing'],
      review: { decision: 'approve', reason: 'ok', reviewer: 'operator', at: at('2026-11-21T08:00:00Z') },
      versions: [
        version(2, 'approved', '2026-11-21T08:00:00Z', held, billed(1_000)),
        version(3, 'completed', '2026-11-21T09:00:00Z', billed(1_000), billed(1_500)),
      ],
    });
    expect(log.map((e) => [e.action, e.by, e.amountFen])).toEqual([
      ['started', null, null],
      ['stopped', null, null],
      ['held', null, null],
      ['approved', 'operator', 1_000],
      ['completed', 'system', 1_500],
    ]);
    expect(log[2].reasons).toEqual(['stopMissing']);
  });
});

const held: VersionFigures = {
  meterStopWh: 9_000,
  energyWh: 8_000,
  payStatus: 3,
  abnormalReasons: ['stopMissing'],
  amounts: { electricityFen: 0, serviceFen: 0, totalFen: 0 },
};
const billed = (totalFen: number): VersionFigures => ({
  meterStopWh: 9_000 + totalFen,
  energyWh: 8_000 + totalFen,
  payStatus: 0,
  abnormalReasons: ['stopMissing'],
  amounts: { electricityFen: totalFen, serviceFen: 0, totalFen },
});
function version(
  n: number,
  kind: OrderVersionEntry['kind'],
  iso: string,
  before: VersionFigures,
  after: VersionFigures,
): OrderVersionEntry {
  return {
    version: n,
    kind,
    reason: kind,
    by: kind === 'completed' ? 'system' : 'operator',
    at: at(iso),
    before,
    after,
  };
}

describe('orderVersions', () => {
  const order = {
    settledAt: '2026-11-20T01:30:00.000Z',
    energyWh: 9_500,
    totalFen: 1_500,
    payStatus: 0 as const,
    meterStopWh: 10_500,
  };

  it('is the order as settled when it never changed', () => {
    expect(orderVersions(order, [])).toEqual([
      expect.objectContaining({
        version: 1,
        kind: 'settled',
        by: null,
        energyWh: 9_500,
        totalFen: 1_500,
        totalDeltaFen: 0,
      }),
    ]);
  });

  it('starts from the figures before the first change and gives each difference', () => {
    const rows = orderVersions(order, [
      version(2, 'approved', '2026-11-21T08:00:00Z', held, billed(1_000)),
      version(3, 'amended', '2026-11-21T09:00:00Z', billed(1_000), billed(1_500)),
    ]);
    expect(
      rows.map((r) => [r.version, r.kind, r.payStatus, r.totalFen, r.energyDeltaWh, r.totalDeltaFen]),
    ).toEqual([
      [1, 'settled', 3, 0, 0, 0],
      [2, 'approved', 0, 1_000, 1_000, 1_000],
      [3, 'amended', 0, 1_500, 500, 500],
    ]);
  });
});
