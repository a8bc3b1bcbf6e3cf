import { randomInt } from 'node:crypto';
import { aVin, unique } from './asset-bodies';

/**
 * Rows written straight into the tables, for tests whose subject is not the basic-data api (billing,
 * monitoring, scopes): builders of column values with overrides (`aStationRow({ fee_scope: 'external' })`)
 * and `insert*` helpers that add what a row needs (its organisation, region, station...).
 */

/** What runs SQL: a DataSource, an EntityManager or a QueryRunner. */
export type Sql = { query(sql: string, parameters?: unknown[]): Promise<unknown> };
/** Column values by column name. */
export type Columns = Record<string, unknown>;

/** Inserts one row (columns whose value is undefined are left to their default) and returns its id. */
export async function insertRow(db: Sql, table: string, row: Columns): Promise<number> {
  const columns = Object.keys(row).filter((column) => row[column] !== undefined);
  const values = columns.map((_, i) => `$${i + 1}`);
  const rows = (await db.query(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.join(', ')}) RETURNING id`,
    columns.map((column) => row[column]),
  )) as { id: number | string }[];
  return Number(rows[0].id);
}

/** The id of a seeded organisation by its code (FZ Fuzhou, HF Hefei...). */
export async function organizationId(db: Sql, code: string): Promise<number> {
  const rows = (await db.query(`SELECT id FROM sys_organization WHERE code = $1`, [code])) as {
    id: string;
  }[];
  if (!rows.length) throw new Error(`no organisation ${code}`);
  return Number(rows[0].id);
}

/** The organisation of a row that has one (a station's, a pile's). */
async function organizationOf(db: Sql, table: string, id: number): Promise<number> {
  const rows = (await db.query(`SELECT organization_id FROM ${table} WHERE id = $1`, [id])) as {
    organization_id: string;
  }[];
  return Number(rows[0].organization_id);
}

/** An organisation given by code (`organization`) or by id (`organization_id`); FZ by default. */
type Owned = Columns & { organization?: string };
async function owner(db: Sql, row: Owned): Promise<{ organization_id: number; rest: Columns }> {
  const { organization, ...rest } = row;
  const id = rest['organization_id'] ?? (await organizationId(db, organization ?? 'FZ'));
  return { organization_id: Number(id), rest };
}

export const aRegionRow = (o: Columns = {}): Columns => ({
  name: 'Gulou',
  area_code: String(randomInt(100_000, 1_000_000)),
  ...o,
});

export const aStationRow = (o: Columns = {}): Columns => ({
  number: unique('S-'),
  name: 'North Yard Depot',
  type: 100,
  status: 0,
  address: 'Depot road 1',
  longitude: 119.3,
  latitude: 26.07,
  opening_time: '00:00',
  closing_time: '23:59',
  is_open: true,
  supports_reservation: true,
  fee_scope: 'internal',
  free_parking_minutes: 30,
  occupation_interval_minutes: 15,
  occupation_unit_price_fen: 100,
  capped_amount_fen: 5000,
  occupation_fee_enabled: false,
  ...o,
});

export const aPileRow = (o: Columns = {}): Columns => ({
  name: 'Pile',
  number: unique('P-'),
  charge_point_id: unique('CP-'),
  device_status: 50,
  protocol_version: 'ocpp1.6',
  ...o,
});

export const aGunRow = (o: Columns = {}): Columns => ({
  name: 'Gun 1',
  channel_number: 1,
  qr_code: unique('QR-'),
  connector_type: 1,
  ...o,
});

export const aVehicleRow = (o: Columns = {}): Columns => ({
  vin: aVin(),
  plate: unique('闽A'),
  battery_capacity_wh: 350_000,
  ...o,
});

/** A charging card (type 3) in normal status. */
export const aCardRow = (o: Columns = {}): Columns => ({
  physical_number: unique('PN'),
  type: 3,
  self_number: unique('SN'),
  cardholder: 'Wang Wu',
  status: 'normal',
  ...o,
});

export const insertRegion = (db: Sql, o: Columns = {}): Promise<number> =>
  insertRow(db, 'region', aRegionRow(o));

/** A station of organisation `organization` (FZ unless given), in a new region unless `region_id` is given. */
export async function insertStation(db: Sql, o: Owned = {}): Promise<number> {
  const { organization_id, rest } = await owner(db, o);
  const region_id = rest['region_id'] ?? (await insertRegion(db));
  return insertRow(db, 'station', aStationRow({ ...rest, organization_id, region_id }));
}

/** A charging pile of its station's organisation (without a station: of `organization`, FZ unless given). */
export async function insertPile(db: Sql, o: Owned = {}): Promise<{ id: number; chargePointId: string }> {
  const stationId = o['station_id'] as number | undefined;
  const { organization_id, rest } =
    stationId !== undefined && o['organization_id'] === undefined && o.organization === undefined
      ? { organization_id: await organizationOf(db, 'station', stationId), rest: o }
      : await owner(db, o);
  const row = aPileRow({ ...rest, organization_id });
  return { id: await insertRow(db, 'charging_pile', row), chargePointId: String(row['charge_point_id']) };
}

/** A gun of pile `pileId`, of the pile's organisation. */
export async function insertGun(db: Sql, pileId: number, o: Columns = {}): Promise<number> {
  const organization_id = await organizationOf(db, 'charging_pile', pileId);
  return insertRow(db, 'charging_gun', aGunRow({ organization_id, pile_id: pileId, ...o }));
}

/** A car manufacturer (or a pile manufacturer with `{ type: 'pile' }`). */
export const insertManufacturer = (db: Sql, o: Columns = {}): Promise<number> =>
  insertRow(db, 'manufacturer', {
    name: unique('Maker '),
    type: 'car',
    contact_name: 'Li',
    contact_number: '0591-88888888',
    ...o,
  });

/** A bus of `organization` (FZ unless given), of a new car manufacturer unless `manufacturer_id` is given. */
export async function insertVehicle(
  db: Sql,
  o: Owned = {},
): Promise<{ id: number; vin: string; plate: string }> {
  const { organization_id, rest } = await owner(db, o);
  const manufacturer_id = rest['manufacturer_id'] ?? (await insertManufacturer(db));
  const row = aVehicleRow({ ...rest, organization_id, manufacturer_id });
  return { id: await insertRow(db, 'vehicle', row), vin: String(row['vin']), plate: String(row['plate']) };
}

/** A card of `organization` (FZ unless given); returns its physical number (the OCPP idTag). */
export async function insertCard(db: Sql, o: Owned = {}): Promise<string> {
  const { organization_id, rest } = await owner(db, o);
  const row = aCardRow({ ...rest, organization_id });
  await insertRow(db, 'charging_card', row);
  return String(row['physical_number']);
}

export type SqlDepot = {
  organizationId: number;
  stationId: number;
  pileId: number;
  chargePointId: string;
  gunIds: number[];
};

/**
 * A station with one pile and its guns (channels 1..n): the place a charging session happens.
 * `station` and `pile` override their rows; `guns` is the number of guns (1) or their rows.
 */
export async function insertDepot(
  db: Sql,
  o: { organization?: string; station?: Columns; pile?: Columns; guns?: number | Columns[] } = {},
): Promise<SqlDepot> {
  const stationId = await insertStation(db, { organization: o.organization, ...o.station });
  const pile = await insertPile(db, { station_id: stationId, ...o.pile });
  const guns =
    typeof o.guns === 'object'
      ? o.guns
      : Array.from({ length: o.guns ?? 1 }, (_, i) => ({ name: `Gun ${i + 1}`, channel_number: i + 1 }));
  const gunIds: number[] = [];
  for (const gun of guns) gunIds.push(await insertGun(db, pile.id, gun));
  return {
    organizationId: await organizationOf(db, 'station', stationId),
    stationId,
    pileId: pile.id,
    chargePointId: pile.chargePointId,
    gunIds,
  };
}

/** A price plan stage as stored: minutes of the day and prices in 1/10,000 yuan per kWh. */
export type PricePlanStageRow = {
  stageType: string;
  startMinute: number;
  endMinute: number;
  electricityPrice: number;
  serviceFee: number;
};

/** A price plan with its stages (one flat stage over the whole day unless given). */
export async function insertPricePlan(
  db: Sql,
  o: { name?: string; isDefault?: boolean; stages?: PricePlanStageRow[] } = {},
): Promise<number> {
  const id = await insertRow(db, 'price_plan', { name: o.name ?? unique('Plan '), is_default: o.isDefault });
  const stages = o.stages ?? [
    { stageType: 'normal', startMinute: 0, endMinute: 1440, electricityPrice: 10_000, serviceFee: 2_000 },
  ];
  for (const [seq, s] of stages.entries()) {
    await db.query(
      `INSERT INTO price_plan_stage (plan_id, seq, stage_type, start_minute, end_minute, electricity_price, service_fee)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, seq, s.stageType, s.startMinute, s.endMinute, s.electricityPrice, s.serviceFee],
    );
  }
  return id;
}
