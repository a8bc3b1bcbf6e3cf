import type { DataSource } from 'typeorm';
import type { MonitorVehicleRef } from '@voltdepot/shared-contracts';

/**
 * The organisation subtrees a user sees (identity's data scope): the app provides it, so this area needs
 * nothing from identity but this shape.
 */
export type MonitoringDataScope = {
  /** `LIKE` patterns over identity_organization_v.path, e.g. `/1/2/%`. */
  pathPatterns: string[];
};

export interface MonitoringDataScopeProvider {
  scopeOf(userId: number): Promise<MonitoringDataScope>;
}

export type StationRecord = {
  id: number;
  number: string;
  name: string;
  address: string;
  longitude: number;
  latitude: number;
  status: number;
};

export type GunRecord = { id: number; name: string; channelNumber: number };

/** A registered host with its guns: what the read model's facts are joined to. */
export type PileRecord = {
  id: number;
  chargePointId: string;
  name: string;
  number: string;
  deviceStatus: number;
  stationId: number | null;
  stationName: string | null;
  guns: GunRecord[];
};

export type VehicleRecord = {
  id: number;
  plate: string;
  vin: string;
  selfNumber: string | null;
  companyName: string | null;
  fleetName: string | null;
  lineName: string | null;
  batteryCapacityWh: number | null;
  /** In service (business-areas §4 operational status): a charge at a pile is then a driving charge. */
  operational: boolean;
  /** Physical numbers (OCPP idTags) of the cards that charge this vehicle. */
  idTags: string[];
};

export type PileFilter = { stationId?: number; keyword?: string };
export type VehicleFilter = { keyword?: string };

/** Rows whose organisation lies in one of the caller's subtrees. */
const inScope = (alias: string, param: number) =>
  `${alias}.organization_id IN (SELECT o.id FROM identity_organization_v o WHERE o.path LIKE ANY($${param}::text[]))`;

/**
 * Which card charges which bus: the card's `vehicle_id` (depots issue one card per bus and pick the bus
 * when they issue the card). A card without that link still belongs to the vehicle whose plate its
 * cardholder or description names, as before the link existed.
 */
const CARD_CHARGES_VEHICLE = `(c.vehicle_id = v.id OR (c.vehicle_id IS NULL AND v.plate <> ''
  AND (strpos(c.cardholder, v.plate) > 0 OR strpos(coalesce(c.description, ''), v.plate) > 0)))`;

const PILE_SELECT = `
  SELECT p.id, p.charge_point_id AS "chargePointId", p.name, p.number, p.device_status AS "deviceStatus",
         p.station_id AS "stationId", s.name AS "stationName",
         coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'channelNumber', g.channel_number)
                                   ORDER BY g.channel_number)
                     FROM assets_gun_v g WHERE g.pile_id = p.id), '[]') AS guns
    FROM assets_pile_v p
    LEFT JOIN assets_station_v s ON s.id = p.station_id`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Reads of the charging assets through the views the assets area publishes. */
export class MonitoringAssetsRepository {
  constructor(private readonly db: DataSource) {}

  async stations(scope: MonitoringDataScope, stationId?: number): Promise<StationRecord[]> {
    const params: unknown[] = [scope.pathPatterns];
    let where = inScope('s', 1);
    if (stationId !== undefined) {
      params.push(stationId);
      where += ` AND s.id = $2`;
    }
    const rows = (await this.db.query(
      `SELECT s.id, s.number, s.name, s.address, s.longitude::float8 AS longitude, s.latitude::float8 AS latitude, s.status
         FROM assets_station_v s WHERE ${where} ORDER BY s.number`,
      params,
    )) as StationRecord[];
    return rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status) }));
  }

  /** The ids of the stations inside the scope. */
  async stationIdsInScope(scope: MonitoringDataScope): Promise<number[]> {
    const rows = (await this.db.query(`SELECT s.id FROM assets_station_v s WHERE ${inScope('s', 1)}`, [
      scope.pathPatterns,
    ])) as { id: number | string }[];
    return rows.map((r) => Number(r.id));
  }

  async pilesOfStations(stationIds: number[]): Promise<PileRecord[]> {
    if (!stationIds.length) return [];
    return this.piles(`WHERE p.station_id = ANY($1::int[])`, [stationIds]);
  }

  /** Hosts of the scope, optionally of one station or matching a keyword (name, number, charge point id). */
  async pilesInScope(scope: MonitoringDataScope, filter: PileFilter): Promise<PileRecord[]> {
    const params: unknown[] = [scope.pathPatterns];
    const where = [inScope('p', 1)];
    if (filter.stationId !== undefined) {
      params.push(filter.stationId);
      where.push(`p.station_id = $${params.length}`);
    }
    if (filter.keyword) {
      params.push(`%${escapeLike(filter.keyword)}%`);
      const k = `$${params.length}`;
      where.push(`(p.name ILIKE ${k} OR p.number ILIKE ${k} OR p.charge_point_id ILIKE ${k})`);
    }
    return this.piles(`WHERE ${where.join(' AND ')}`, params);
  }

  /** A host by charge point id, whatever the scope (the projector's pushes) or within one (commands). */
  async pileByChargePoint(
    chargePointId: string,
    scope?: MonitoringDataScope,
  ): Promise<PileRecord | undefined> {
    const params: unknown[] = [chargePointId];
    let where = `WHERE p.charge_point_id = $1`;
    if (scope) {
      params.push(scope.pathPatterns);
      where += ` AND ${inScope('p', 2)}`;
    }
    return (await this.piles(where, params))[0];
  }

  private async piles(where: string, params: unknown[]): Promise<PileRecord[]> {
    const rows = (await this.db.query(
      `${PILE_SELECT} ${where} ORDER BY s.name NULLS LAST, p.number`,
      params,
    )) as (PileRecord & { guns: GunRecord[] })[];
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      deviceStatus: Number(r.deviceStatus),
      stationId: r.stationId === null ? null : Number(r.stationId),
      guns: r.guns.map((g) => ({ id: Number(g.id), name: g.name, channelNumber: Number(g.channelNumber) })),
    }));
  }

  async vehiclesInScope(scope: MonitoringDataScope, filter: VehicleFilter): Promise<VehicleRecord[]> {
    const params: unknown[] = [scope.pathPatterns];
    const where = [inScope('v', 1)];
    if (filter.keyword) {
      params.push(`%${escapeLike(filter.keyword)}%`);
      const k = `$${params.length}`;
      where.push(`(v.plate ILIKE ${k} OR v.vin ILIKE ${k} OR v.self_number ILIKE ${k})`);
    }
    const rows = (await this.db.query(
      `SELECT v.id, v.plate, v.vin, v.self_number AS "selfNumber", v.company_name AS "companyName",
              v.fleet_name AS "fleetName", v.line_name AS "lineName", v.battery_capacity_wh AS "batteryCapacityWh",
              v.operational,
              coalesce((SELECT array_agg(c.physical_number ORDER BY c.physical_number)
                          FROM assets_card_v c WHERE ${CARD_CHARGES_VEHICLE}), '{}') AS "idTags"
         FROM assets_vehicle_v v
        WHERE ${where.join(' AND ')}
        ORDER BY v.self_number NULLS LAST, v.plate`,
      params,
    )) as VehicleRecord[];
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      batteryCapacityWh: r.batteryCapacityWh === null ? null : Number(r.batteryCapacityWh),
      operational: r.operational === true,
    }));
  }

  /** The vehicle each card (idTag) charges: its linked one, else the one its text names (the longest plate). */
  async vehiclesByIdTag(idTags: string[]): Promise<Map<string, MonitorVehicleRef>> {
    const result = new Map<string, MonitorVehicleRef>();
    if (!idTags.length) return result;
    const rows = (await this.db.query(
      `SELECT DISTINCT ON (c.physical_number) c.physical_number AS "idTag", v.id, v.plate, v.self_number AS "selfNumber"
         FROM assets_card_v c JOIN assets_vehicle_v v ON ${CARD_CHARGES_VEHICLE}
        WHERE c.physical_number = ANY($1::text[])
        ORDER BY c.physical_number, length(v.plate) DESC, v.id`,
      [[...new Set(idTags)]],
    )) as (MonitorVehicleRef & { idTag: string })[];
    for (const { idTag, ...vehicle } of rows) result.set(idTag, { ...vehicle, id: Number(vehicle.id) });
    return result;
  }

  /** Hosts by charge point id (where the bus list's sessions took place). */
  async pilesByChargePoints(chargePointIds: string[]): Promise<Map<string, PileRecord>> {
    if (!chargePointIds.length) return new Map();
    const piles = await this.piles(`WHERE p.charge_point_id = ANY($1::text[])`, [
      [...new Set(chargePointIds)],
    ]);
    return new Map(piles.map((p) => [p.chargePointId, p]));
  }
}
