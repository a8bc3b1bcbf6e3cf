import {
  GUN_STATUSES,
  VEHICLE_CHARGE_STATUSES,
  type GunStatusCounts,
  type MonitorGunView,
  type MonitorPilePage,
  type MonitorPileView,
  type MonitorStationSummary,
  type MonitorStationView,
  type MonitorVehiclePage,
  type MonitorVehicleView,
  type VehicleChargeStatus,
} from '@voltdepot/shared-contracts';
import type {
  MonitoringAssetsRepository,
  MonitoringDataScopeProvider,
  PileRecord,
  StationRecord,
} from '../assets/monitoring-assets.repository';
import { MonitoringErrorCode, MonitoringException } from '../monitoring.exception';
import type { ReadModelStore } from '../read-model/read-model.store';
import { pileState, vehicleChargeState, type GunState } from '../read-model/views';
import { liveFigures, type LiveFigures } from './live-figures';
import type { PageParams, PileQuery, VehicleQuery } from './monitoring.dto';

/** The later of two ISO instants (either may be missing). */
function latestOf(a: string | null, b: string | undefined): string | null {
  if (!b) return a;
  if (!a) return b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

const emptyCounts = (): GunStatusCounts =>
  Object.fromEntries(GUN_STATUSES.map((s) => [s, 0])) as GunStatusCounts;

/**
 * The monitoring screens' reads: asset records of the caller's data scope (stations, hosts, guns,
 * vehicles) joined with the read model's live state.
 */
/** What the screens read of the live state and of the asset records (unit tests fake exactly this). */
export type LiveStateReads = Pick<ReadModelStore, 'readPiles' | 'latestCardSessions'>;
export type MonitoredAssets = Pick<
  MonitoringAssetsRepository,
  | 'stations'
  | 'pilesOfStations'
  | 'pilesInScope'
  | 'pileByChargePoint'
  | 'vehiclesInScope'
  | 'vehiclesByIdTag'
  | 'pilesByChargePoints'
>;

export class MonitoringService {
  constructor(
    private readonly store: LiveStateReads,
    private readonly assets: MonitoredAssets,
    private readonly scopes: MonitoringDataScopeProvider,
    private readonly clock: () => Date = () => new Date(),
    /**
     * When the piles were last heard from on their live connections (the gateway's connection records):
     * the read model moves only on events, and an idle pile's heartbeats publish none.
     */
    private readonly liveLastSeen: (chargePointIds: string[]) => Promise<Map<string, string>> = async () =>
      new Map(),
  ) {}

  /** Live views of these hosts, in the given order, with the vehicle of each gun's card. */
  async pileViews(piles: PileRecord[]): Promise<MonitorPileView[]> {
    return this.withVehicles(await this.liveViews(piles));
  }

  /** Live views without the guns' vehicles (for counts and filters: no need to look the cards up). */
  private async liveViews(piles: PileRecord[]): Promise<MonitorPileView[]> {
    const ids = piles.map((p) => p.chargePointId);
    const [stored, heard] = await Promise.all([
      this.store.readPiles(
        ids,
        new Map(piles.map((p) => [p.chargePointId, p.guns.map((g) => g.channelNumber)])),
      ),
      this.liveLastSeen(ids).catch(() => new Map<string, string>()),
    ]);
    return piles.map((pile) => {
      const state = pileState(
        stored.get(pile.chargePointId) ?? {
          chargePointId: pile.chargePointId,
          info: {},
          connections: [],
          connectors: [],
          guns: [],
        },
      );
      const byConnector = new Map(state.guns.map((g) => [g.connectorId, g]));
      const known = new Set(pile.guns.map((g) => g.channelNumber));
      const guns: MonitorGunView[] = [
        ...pile.guns.map((g) => gunView(byConnector.get(g.channelNumber), g.channelNumber, g.id, g.name)),
        ...state.guns
          .filter((g) => !known.has(g.connectorId))
          .map((g) => gunView(g, g.connectorId, null, null)),
      ];
      return {
        pileId: pile.id,
        chargePointId: pile.chargePointId,
        name: pile.name,
        number: pile.number,
        stationId: pile.stationId,
        stationName: pile.stationName,
        deviceStatus: pile.deviceStatus,
        online: state.online,
        onlineSince: state.onlineSince,
        lastSeenAt: latestOf(state.lastSeenAt, heard.get(pile.chargePointId)),
        vendor: state.vendor,
        model: state.model,
        firmwareVersion: state.firmwareVersion,
        ocppStatus: state.ocppStatus,
        guns,
      };
    });
  }

  /** The vehicle of each gun's card, looked up once for all these views. */
  private async withVehicles(views: MonitorPileView[]): Promise<MonitorPileView[]> {
    const idTags = views.flatMap((v) => v.guns.flatMap((g) => (g.idTag ? [g.idTag] : [])));
    if (!idTags.length) return views;
    const vehicles = await this.assets.vehiclesByIdTag(idTags);
    return views.map((view) => ({
      ...view,
      guns: view.guns.map((g) => ({ ...g, vehicle: g.idTag ? (vehicles.get(g.idTag) ?? null) : null })),
    }));
  }

  /** Every station of the caller's scope with counts of its guns by status (the map's markers). */
  async stationSummaries(userId: number): Promise<MonitorStationSummary[]> {
    const stations = await this.assets.stations(await this.scopes.scopeOf(userId));
    const piles = await this.assets.pilesOfStations(stations.map((s) => s.id));
    const views = await this.liveViews(piles);
    return stations.map((station) =>
      summary(
        station,
        views.filter((v) => v.stationId === station.id),
      ),
    );
  }

  /** Stations, piles and guns of the caller's scope counted by live state (the home page's figures). */
  async liveFigures(userId: number): Promise<LiveFigures> {
    const stations = await this.assets.stations(await this.scopes.scopeOf(userId));
    const piles = await this.assets.pilesOfStations(stations.map((s) => s.id));
    return liveFigures(
      stations.map((s) => s.id),
      await this.liveViews(piles),
    );
  }

  async stationView(userId: number, stationId: number): Promise<MonitorStationView> {
    const [station] = await this.assets.stations(await this.scopes.scopeOf(userId), stationId);
    if (!station) {
      throw new MonitoringException(
        MonitoringErrorCode.StationNotFound,
        `Station ${stationId} does not exist`,
      );
    }
    const piles = await this.pileViews(await this.assets.pilesOfStations([station.id]));
    return { ...summary(station, piles), piles };
  }

  /** The stations a caller may filter the pile monitor by. */
  async stationOptions(userId: number): Promise<{ id: number; name: string }[]> {
    const stations = await this.assets.stations(await this.scopes.scopeOf(userId));
    return stations.map(({ id, name }) => ({ id, name }));
  }

  /** Hosts of the caller's scope, filtered by station, keyword, online and gun status, one page. */
  async pilePage(userId: number, query: PileQuery, { page, size }: PageParams): Promise<MonitorPilePage> {
    const piles = await this.assets.pilesInScope(await this.scopes.scopeOf(userId), query);
    // Online and gun status live in Redis: filter after joining (a depot has hundreds of hosts, not millions).
    const needsState = query.online !== undefined || query.gunStatus !== undefined;
    if (!needsState) {
      const list = await this.pileViews(piles.slice((page - 1) * size, page * size));
      return { list, total: piles.length };
    }
    const views = (await this.liveViews(piles)).filter(
      (v) =>
        (query.online === undefined || v.online === query.online) &&
        (query.gunStatus === undefined || v.guns.some((g) => g.status === query.gunStatus)),
    );
    return {
      list: await this.withVehicles(views.slice((page - 1) * size, page * size)),
      total: views.length,
    };
  }

  /** A host of the caller's scope by charge point id (404 otherwise). */
  async requirePile(userId: number, chargePointId: string): Promise<PileRecord> {
    const pile = await this.assets.pileByChargePoint(chargePointId, await this.scopes.scopeOf(userId));
    if (!pile) {
      throw new MonitoringException(MonitoringErrorCode.PileNotFound, `Pile ${chargePointId} does not exist`);
    }
    return pile;
  }

  /** The bus list (business-areas §2 vehicle monitoring): SoC and charging status of each vehicle. */
  async vehiclePage(
    userId: number,
    query: VehicleQuery,
    { page, size }: PageParams,
  ): Promise<MonitorVehiclePage> {
    const scope = await this.scopes.scopeOf(userId);
    const [vehicles, stations] = await Promise.all([
      this.assets.vehiclesInScope(scope, { keyword: query.keyword }),
      this.assets.stations(scope),
    ]);
    const sessions = await this.store.latestCardSessions(vehicles.flatMap((v) => v.idTags));
    const now = this.clock();
    const rows = vehicles.map((vehicle) => ({
      vehicle,
      state: vehicleChargeState(
        vehicle.idTags.map((t) => sessions.get(t)).filter((s) => s !== undefined),
        vehicle,
        now,
      ),
    }));
    const filtered = rows.filter(
      ({ state }) =>
        (query.chargeStatus === undefined || state.chargeStatus === query.chargeStatus) &&
        (query.lowSoc === undefined || state.lowSoc === query.lowSoc),
    );
    const byStatus = Object.fromEntries(VEHICLE_CHARGE_STATUSES.map((s) => [s, 0])) as Record<
      VehicleChargeStatus,
      number
    >;
    for (const { state } of filtered) byStatus[state.chargeStatus]++;
    const pageRows = filtered.slice((page - 1) * size, page * size);
    const piles = await this.assets.pilesByChargePoints(
      pageRows.flatMap(({ state }) => (state.session ? [state.session.chargePointId] : [])),
    );
    const list: MonitorVehicleView[] = pageRows.map(({ vehicle, state }) => {
      const session = state.session;
      const pile = session ? piles.get(session.chargePointId) : undefined;
      const f = session?.transaction.fields ?? {};
      return {
        id: vehicle.id,
        plate: vehicle.plate,
        vin: vehicle.vin,
        selfNumber: vehicle.selfNumber,
        companyName: vehicle.companyName,
        fleetName: vehicle.fleetName,
        lineName: vehicle.lineName,
        batteryCapacityWh: vehicle.batteryCapacityWh,
        operational: vehicle.operational,
        chargeStatus: state.chargeStatus,
        soc: state.soc,
        socAt: state.socAt,
        lowSoc: state.lowSoc,
        chargePointId: session?.chargePointId ?? null,
        connectorId: f['connectorId'] ? Number(f['connectorId']) : null,
        stationId: pile?.stationId ?? null,
        stationName: pile?.stationName ?? null,
        powerW: state.powerW,
        energyWh: state.energyWh,
        sessionStartedAt: f['startedAt'] ?? null,
        sessionEndedAt: f['stoppedAt'] ?? null,
      };
    });
    return {
      list,
      total: filtered.length,
      summary: { lowSoc: filtered.filter(({ state }) => state.lowSoc).length, byStatus },
      stationIds: stations.map((s) => s.id),
    };
  }

  /** The live view of one host, whatever the scope, for the push to its station's subscribers. */
  async pushViewOf(chargePointId: string): Promise<MonitorPileView | undefined> {
    const pile = await this.assets.pileByChargePoint(chargePointId);
    if (!pile || pile.stationId === null) return undefined;
    return (await this.pileViews([pile]))[0];
  }
}

function gunView(
  state: GunState | undefined,
  connectorId: number,
  gunId: number | null,
  name: string | null,
): MonitorGunView {
  return {
    gunId,
    name,
    connectorId,
    status: state?.status ?? 'offline',
    ocppStatus: state?.ocppStatus ?? null,
    errorCode: state?.errorCode ?? null,
    info: state?.info ?? null,
    since: state?.since ?? null,
    transactionId: state?.transactionId ?? null,
    idTag: state?.idTag ?? null,
    sessionStartedAt: state?.sessionStartedAt ?? null,
    powerW: state?.powerW ?? null,
    energyWh: state?.energyWh ?? null,
    soc: state?.soc ?? null,
    sampledAt: state?.sampledAt ?? null,
    vehicle: null,
  };
}

function summary(station: StationRecord, piles: MonitorPileView[]): MonitorStationSummary {
  const guns = emptyCounts();
  for (const pile of piles) for (const gun of pile.guns) guns[gun.status]++;
  return {
    ...station,
    pilesOnline: piles.filter((p) => p.online).length,
    pilesTotal: piles.length,
    guns,
  };
}
