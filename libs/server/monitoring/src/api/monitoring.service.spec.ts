import type { MonitoringDataScope, PileRecord, StationRecord } from '../assets/monitoring-assets.repository';
import { MonitoringErrorCode } from '../monitoring.exception';
import type { StoredPile } from '../read-model/read-model.store';
import { MonitoringService, type LiveStateReads, type MonitoredAssets } from './monitoring.service';

// The read model's entries as the projector writes them: `<at>|<seq>|<json>`.
let seq = 0;
const entry = (at: string, data: object) =>
  `${at}|${String(++seq).padStart(15, '0')}|${JSON.stringify(data)}`;
const AT = '2026-11-20T08:00:00.000Z';

/** A pile's live state: connected or not, and the latest OCPP status of some connectors. */
function live(
  cp: string,
  online: boolean,
  statuses: Record<number, string> = {},
  lastSeenAt = AT,
): StoredPile {
  return {
    chargePointId: cp,
    info: { lastSeenAt },
    connections: online ? [entry(AT, { k: 'c', s: `${cp}:s1`, r: 'gw' })] : [],
    connectors: Object.keys(statuses).map(Number),
    guns: Object.entries(statuses).map(([connectorId, s]) => ({
      connectorId: Number(connectorId),
      statuses: [entry(AT, { s, e: 'NoError', i: null })],
      transaction: null,
    })),
  };
}

const station = (id: number, name: string): StationRecord => ({
  id,
  number: `S${id}`,
  name,
  address: 'Depot road',
  longitude: 119.3,
  latitude: 26.07,
  status: 0,
});
const pile = (id: number, stationId: number, guns: number[]): PileRecord => ({
  id,
  chargePointId: `CP-${id}`,
  name: `Pile ${id}`,
  number: `P${id}`,
  deviceStatus: 50,
  stationId,
  stationName: `Station ${stationId}`,
  guns: guns.map((channel) => ({ id: id * 10 + channel, name: `Gun ${channel}`, channelNumber: channel })),
});

/** Station 1 is in the caller's scope (piles 1 to 3), station 2 is not (pile 4). */
class FakeMonitoring implements MonitoredAssets, LiveStateReads {
  readonly stationsById = new Map([
    [1, { record: station(1, 'North Yard'), path: '/1/2/' }],
    [2, { record: station(2, 'Hefei Yard'), path: '/1/4/' }],
  ]);
  readonly piles = [pile(1, 1, [1, 2]), pile(2, 1, [1]), pile(3, 1, [1]), pile(4, 2, [1])];
  readonly state = new Map<string, StoredPile>();

  private visible(scope: MonitoringDataScope, stationId: number) {
    const path = this.stationsById.get(stationId)!.path;
    return scope.pathPatterns.some((p) => path.startsWith(p.replace(/%$/, '')));
  }
  async stations(scope: MonitoringDataScope, stationId?: number) {
    return [...this.stationsById.values()]
      .filter(
        (s) => this.visible(scope, s.record.id) && (stationId === undefined || s.record.id === stationId),
      )
      .map((s) => s.record);
  }
  async pilesOfStations(ids: number[]) {
    return this.piles.filter((p) => ids.includes(p.stationId!));
  }
  async pilesInScope(scope: MonitoringDataScope) {
    return this.piles.filter((p) => this.visible(scope, p.stationId!));
  }
  async pileByChargePoint(cp: string, scope?: MonitoringDataScope) {
    return this.piles.find((p) => p.chargePointId === cp && (!scope || this.visible(scope, p.stationId!)));
  }
  async vehiclesInScope() {
    return [];
  }
  async vehiclesByIdTag() {
    return new Map();
  }
  async pilesByChargePoints() {
    return new Map();
  }
  async readPiles(ids: string[]) {
    return new Map(ids.flatMap((cp) => (this.state.has(cp) ? [[cp, this.state.get(cp)!] as const] : [])));
  }
  async latestCardSessions() {
    return new Map();
  }
}

function setup(liveLastSeen?: (ids: string[]) => Promise<Map<string, string>>) {
  const fake = new FakeMonitoring();
  const service = new MonitoringService(
    fake,
    fake,
    { scopeOf: async () => ({ pathPatterns: ['/1/2/%'] }) },
    () => new Date(AT),
    liveLastSeen,
  );
  return { fake, service };
}

describe('MonitoringService', () => {
  it("shows a station's hosts with their guns' live status, and counts them", async () => {
    const { fake, service } = setup();
    fake.state.set('CP-1', live('CP-1', true, { 1: 'Charging', 2: 'Available', 3: 'Faulted' }));
    const view = await service.stationView(7, 1);
    const first = view.piles.find((p) => p.chargePointId === 'CP-1')!;
    // Connector 3 has no gun record: shown after the registered guns, without an id or name.
    expect(first.guns.map((g) => [g.gunId, g.name, g.connectorId, g.status])).toEqual([
      [11, 'Gun 1', 1, 'charging'],
      [12, 'Gun 2', 2, 'idle'],
      [null, null, 3, 'fault'],
    ]);
    expect(view).toMatchObject({
      pilesOnline: 1,
      pilesTotal: 3,
      guns: expect.objectContaining({ charging: 1, idle: 1, fault: 1, offline: 2 }),
    });
  });

  it("counts the scope's stations, piles and guns by live state, a station online while one of its piles is", async () => {
    const fake = new FakeMonitoring();
    const figuresOf = (pathPatterns: string[]) =>
      new MonitoringService(fake, fake, { scopeOf: async () => ({ pathPatterns }) }).liveFigures(7);
    fake.state.set('CP-1', live('CP-1', true, { 1: 'Charging', 2: 'Faulted' }));
    fake.state.set('CP-3', live('CP-3', true, { 1: 'Available' }));
    // CP-2 (station 1) was never heard of; CP-4 (station 2) is offline: station 2 is offline.
    fake.state.set('CP-4', live('CP-4', false, { 1: 'Available' }));
    expect(await figuresOf(['/1/%'])).toEqual({
      stations: { online: 1, total: 2 },
      piles: { online: 2, total: 4 },
      guns: { online: 3, total: 5, charging: 1 },
      faults: { piles: 1, guns: 1 },
    });
    // The caller's scope bounds every count.
    expect(await figuresOf(['/1/4/%'])).toEqual({
      stations: { online: 0, total: 1 },
      piles: { online: 0, total: 1 },
      guns: { online: 0, total: 1, charging: 0 },
      faults: { piles: 0, guns: 0 },
    });
  });

  it('reads a station outside the caller’s scope as missing (404)', async () => {
    const { service } = setup();
    await expect(service.stationView(7, 2)).rejects.toMatchObject({
      code: MonitoringErrorCode.StationNotFound,
    });
  });

  it.each([
    ['online piles', { online: true }, ['CP-1', 'CP-3']],
    ['offline piles', { online: false }, ['CP-2']],
    ['piles with a charging gun', { gunStatus: 'charging' as const }, ['CP-3']],
  ])('filters %s on their live state, counting what the filter keeps', async (_case, query, expected) => {
    const { fake, service } = setup();
    fake.state.set('CP-1', live('CP-1', true, { 1: 'Available' }));
    fake.state.set('CP-3', live('CP-3', true, { 1: 'Charging' }));
    const page = await service.pilePage(7, query, { page: 1, size: 10 });
    expect(page.list.map((p) => p.chargePointId)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it('pages after filtering', async () => {
    const { fake, service } = setup();
    for (const cp of ['CP-1', 'CP-2', 'CP-3']) fake.state.set(cp, live(cp, true));
    const second = await service.pilePage(7, { online: true }, { page: 2, size: 2 });
    expect(second).toMatchObject({ total: 3, list: [expect.objectContaining({ chargePointId: 'CP-3' })] });
  });

  it('takes the later of the read model and the live connection as last seen, and does without the latter', async () => {
    const later = '2026-11-20T08:05:00.000Z';
    const heard = setup(async () => new Map([['CP-1', later]]));
    heard.fake.state.set('CP-1', live('CP-1', true));
    expect((await heard.service.stationView(7, 1)).piles[0].lastSeenAt).toBe(later);

    const unreachable = setup(async () => {
      throw new Error('redis down');
    });
    unreachable.fake.state.set('CP-1', live('CP-1', true));
    expect((await unreachable.service.stationView(7, 1)).piles[0].lastSeenAt).toBe(AT);
  });

  it('answers 404 for a pile of another organisation', async () => {
    const { service } = setup();
    await expect(service.requirePile(7, 'CP-4')).rejects.toMatchObject({
      code: MonitoringErrorCode.PileNotFound,
    });
    await expect(service.requirePile(7, 'CP-1')).resolves.toMatchObject({ id: 1 });
  });
});
