/**
 * The living demo depot: seeds (idempotently) two bus depots as charging-assets records the console shows
 * (a bus company with its fleets and lines, stations, transformers, piles and guns, buses and their cards)
 * plus a five-band price plan, then runs simulated piles that charge buses the way a depot does in the
 * evening, so a newcomer sees guns charging, orders appearing and stop notices within a minute of
 * `npm start`.
 *
 * Whatever the hour the depot clock starts at, some buses are on their guns at once (`openingVisits`:
 * the night's charging, the evening's returns, daytime top-ups below the supplementary SoC threshold).
 * The piles run on a depot clock (`DepotClock`): it starts at 17:00 business time with at least 4 hours
 * to replay and runs DEMO_TIME_SCALE times faster until it has caught up with real time, then at real
 * time. Every message carries the depot clock's time, never a time in the future; energy is power x
 * depot time (60 to 120 kW per gun, each bus's battery from its vehicle record), so orders cross price
 * bands as a real evening's do. After charging, a bus stays plugged in for a few depot minutes, now and
 * then long enough to pay the occupation fee that the 东郊 depot charges.
 *
 *   node -r @swc-node/register scripts/demo-depot.ts [--seed-only]
 *
 * Environment: DATABASE_URL (required), OCPP_URL (ws://127.0.0.1:9000/ocpp), DEMO_SIMULATION (true;
 * false: seed only, like --seed-only), DEMO_TIME_SCALE (120: two depot hours per real minute while
 * catching up), DEMO_REPLAY_HOURS (replay that many hours before now instead of from 17:00; 0: live at
 * once), DEMO_ABNORMAL_RATE (0.08), DEMO_FAULT_RATE (0.03); PILE_PASSWORD_KEY (and its _ID), as the api's and the
 * gateway's, for the piles' passwords.
 */
import { gatewayStateOf, idTagStatusOf } from '@voltdepot/server-assets';
import { createDataSource } from '@voltdepot/server-database';
import { DepotClock, SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';
import type { StopReason } from '@voltdepot/shared-ocpp';
import type { DataSource } from 'typeorm';
import {
  between,
  DEFAULT_DEMO_BUS,
  demoClockStart,
  type DemoBus,
  dwellAfterStopMs,
  nextArrival,
  openingVisits,
  type OpeningVisit,
  sessionPowerW,
  visitOf,
} from './demo/depot-schedule';
import { DEMO_FAULTS, type DemoStationRows, seedDemoBasicData } from './demo/basic-data';
import { seedDemoIcCards } from './demo/iccard';
import { seedDemoMessages } from './demo/messages';
import { ensure } from './demo/seed-row';

/** Two depots of 10 piles with 2 guns each: 40 guns for 40 buses. Both near Hefei, under the HF depot. */
export const DEMO_DEPOTS = [
  {
    code: 'A',
    number: 'HF-DEPOT-A',
    name: '东郊公交充电站',
    shortName: '东郊',
    address: '安徽省合肥市瑶海区东二环路东郊公交场站',
    latitude: 31.82,
    longitude: 117.23,
    areaSqm: 26_000,
    // Buses left on the gun after charging pay by the quarter hour beyond the first free one.
    occupationFeeEnabled: true,
    freeParkingMinutes: 15,
  },
  {
    code: 'B',
    number: 'HF-DEPOT-B',
    name: '西站公交充电站',
    shortName: '西站',
    address: '安徽省合肥市蜀山区长江西路西站公交场站',
    latitude: 31.86,
    longitude: 117.18,
    areaSqm: 20_000,
    occupationFeeEnabled: false,
    freeParkingMinutes: 120,
  },
];
export const PILES_PER_DEPOT = 10;
/** The company that runs the depots' charging (the stations' operator). */
const DEMO_OPERATOR = {
  number: 'OP-HF-01',
  name: '合肥伏特充电运营有限公司',
  creditCode: '91340100MA8N3K5Q2X',
};
export const DEMO_PILE_PASSWORD = 'demo-pile-password';
export const pileIds = (): string[] =>
  DEMO_DEPOTS.flatMap((d) =>
    Array.from({ length: PILES_PER_DEPOT }, (_, i) => `DEPOT-${d.code}-${String(i + 1).padStart(2, '0')}`),
  );
export const busCards = (): string[] =>
  Array.from({ length: 40 }, (_, i) => `BUS${String(i + 1).padStart(4, '0')}`);

/** Stage type, from, to, electricity and service fee in 1/10,000 yuan per kWh. */
const DEMO_PLAN: [string, number, number, number, number][] = [
  ['deepValley', 0, 360, 2100, 4000],
  ['valley', 360, 480, 3200, 4000],
  ['normal', 480, 600, 6400, 6000],
  ['peak', 600, 1020, 8523, 8000],
  ['sharp', 1020, 1140, 11800, 8000],
  ['normal', 1140, 1380, 6400, 6000],
  ['valley', 1380, 1440, 3200, 4000],
];

/** The bus company's two fleets and their lines (fleet number, name, lines as number and name). */
const DEMO_FLEETS: [string, string, [string, string][]][] = [
  [
    '01',
    '第一车队',
    [
      ['1', '1路'],
      ['11', '11路'],
    ],
  ],
  [
    '02',
    '第二车队',
    [
      ['126', '126路'],
      ['226', '226路'],
    ],
  ],
];

/**
 * Dictionary codes (business-areas §9, sys_dict; labels in shared-contracts' code-labels): station type
 * bus, GB/T 2015, direct-current charger (0; 1 is AC), DC connector, 24 V BMS.
 */
const STATION_TYPE_BUS = 100;
const NATIONAL_STANDARD_2015 = 2;
export const CHARGER_TYPE_DC = 0;
const CHARGER_TYPE_AC = 1;
const CONNECTOR_TYPE_DC = 4;
const BMS_POWER_24V = 2;
const PAYMENT_POSTPAID = 0;
const DEVICE_STATUS_NORMAL = 50;
const CARD_TYPE_CHARGING = 3;
const CARD_STATUS_NORMAL = 'normal';

/** One bus per gun: plate, VIN, battery, fleet and line, and its charging card (the simulation's idTag). */
export const demoVehicles = () =>
  busCards().map((card, i) => {
    const line = Math.floor(i / 10);
    return {
      card,
      plate: `皖A·D${1201 + i}`,
      vin: `LVDBUS2024D${String(i + 1).padStart(6, '0')}`,
      selfNumber: String(1201 + i),
      batteryCapacityWh: (280 + (i % 5) * 35) * 1000,
      // Below this SoC a bus comes back for a midday top-up (vehicle `supplementary_soc`).
      supplementarySoc: 25 + (i % 4) * 5,
      fleet: Math.floor(line / 2),
      line: line % 2,
    };
  });

/**
 * Seeds the demo depot as the assets api would record it, in one transaction: rows are written with SQL
 * (the assets services need Nest DI and a principal), column for column what the services store, and a
 * new pile or card writes the gateway's `pile_registry` / `id_tag` row exactly as the assets hooks do.
 * Idempotent by natural keys: an existing record is kept as it is, whatever was changed in the console.
 * Then the message centre's configs, templates, groups and rules (demo/messages.ts) and the IC cards
 * and accounts (demo/iccard.ts), some of them on the buses' cards.
 */
export async function seedDemoDepot(dataSource: DataSource): Promise<void> {
  await dataSource.transaction(async (m) => {
    // The Hefei depot's organisation: visible to administrators (ROOT) and to maintenance staff (HF).
    const [organization] = (await m.query(
      `SELECT id FROM sys_organization WHERE code IN ('HF', 'ROOT') ORDER BY code = 'HF' DESC LIMIT 1`,
    )) as { id: number }[];
    if (!organization) throw new Error(`no 'HF' or 'ROOT' organisation: run the migrations first`);
    const organizationId = Number(organization.id);

    // Reference data (shared by every organisation).
    const { id: regionId } = await ensure(m, 'region', { area_code: '340100' }, () => ({
      name: '合肥市',
      province: '安徽省',
      city: '合肥市',
    }));
    const labelIds: number[] = [];
    for (const [type, name] of [
      ['payment', '刷卡支付'],
      ['nationalStandard', 'GB/T 2015'],
      ['chargingType', '直流快充'],
      ['stationType', '公交专用站'],
    ]) {
      labelIds.push((await ensure(m, 'asset_label', { type, name })).id);
    }
    const { id: pileMakerId } = await ensure(
      m,
      'manufacturer',
      { type: 'pile', name: '合肥伏特充电设备有限公司' },
      () => ({ contact_name: '王工', contact_number: '0551-65550101' }),
    );
    const { id: carMakerId } = await ensure(
      m,
      'manufacturer',
      { type: 'car', name: '江淮示范客车有限公司' },
      () => ({ contact_name: '李工', contact_number: '0551-65550202' }),
    );

    // The bus company: one branch, two fleets, four lines.
    const { id: companyId } = await ensure(m, 'bus_company', { number: 'HFBUS' }, () => ({
      name: '合肥公交集团',
      organization_id: organizationId,
    }));
    const { id: branchId } = await ensure(
      m,
      'bus_branch',
      { company_id: companyId, number: 'HFBUS-1' },
      () => ({
        name: '第一营运分公司',
        organization_id: organizationId,
      }),
    );
    const fleetIds: number[] = [];
    const lineIds: number[][] = [];
    for (const [number, name, lines] of DEMO_FLEETS) {
      const { id: fleetId } = await ensure(m, 'bus_fleet', { company_id: companyId, number }, () => ({
        name,
        branch_id: branchId,
        organization_id: organizationId,
      }));
      fleetIds.push(fleetId);
      const ids: number[] = [];
      for (const [lineNumber, lineName] of lines) {
        const { id } = await ensure(m, 'bus_line', { fleet_id: fleetId, number: lineNumber }, () => ({
          name: lineName,
          organization_id: organizationId,
        }));
        ids.push(id);
      }
      lineIds.push(ids);
    }

    // The default price plan, priced from the epoch at both stations.
    let [plan] = (await m.query(`SELECT id FROM price_plan WHERE is_default`)) as { id: number }[];
    if (!plan) {
      [plan] = (await m.query(
        `INSERT INTO price_plan (name, is_default) VALUES ('公交场站分时电价 Depot time-of-use tariff', true) RETURNING id`,
      )) as { id: number }[];
      for (const [seq, [type, from, to, electricity, service]] of DEMO_PLAN.entries()) {
        await m.query(
          `INSERT INTO price_plan_stage (plan_id, seq, stage_type, start_minute, end_minute, electricity_price, service_fee)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [plan.id, seq, type, from, to, electricity, service],
        );
      }
    }

    const { id: operatorId } = await ensure(m, 'charging_operator', { number: DEMO_OPERATOR.number }, () => ({
      name: DEMO_OPERATOR.name,
      contact_name: '陈经理',
      mobile_phone: '13905510088',
      fixed_phone: '0551-65550088',
      registered_address: '安徽省合肥市包河区繁华大道 88 号',
      credit_code: DEMO_OPERATOR.creditCode,
      remark: '公交场站充电设施的建设与运营',
    }));

    const piles = pileIds();
    const seededStations: DemoStationRows[] = [];
    for (const [d, depot] of DEMO_DEPOTS.entries()) {
      const station = await ensure(m, 'station', { number: depot.number }, () => ({
        name: depot.name,
        region_id: regionId,
        company_id: companyId,
        operator_id: operatorId,
        type: STATION_TYPE_BUS,
        status: 0,
        address: depot.address,
        longitude: depot.longitude,
        latitude: depot.latitude,
        description: `${depot.name}：${PILES_PER_DEPOT} 台 240 kW 双枪直流桩，夜间为公交车补电`,
        responsible_phone: '0551-65550300',
        service_phone: '400-800-0551',
        parking_spaces: PILES_PER_DEPOT * 2,
        area_sqm: depot.areaSqm,
        opening_time: '00:00',
        closing_time: '23:59',
        is_open: true,
        supports_reservation: false,
        fee_scope: 'internal',
        free_parking_minutes: depot.freeParkingMinutes,
        occupation_fee_enabled: depot.occupationFeeEnabled,
        occupation_interval_minutes: 15,
        occupation_unit_price_fen: 100,
        capped_amount_fen: 5000,
        organization_id: organizationId,
      }));
      if (!station.created && depot.occupationFeeEnabled) {
        // A depot seeded before it charged occupation fees gets them, unless someone has edited it since
        // (the console's edits bump updated_at): the seed's own update leaves updated_at alone.
        await m.query(
          `UPDATE station SET occupation_fee_enabled = true, free_parking_minutes = $2
            WHERE id = $1 AND NOT occupation_fee_enabled AND updated_at = created_at`,
          [station.id, depot.freeParkingMinutes],
        );
      }
      // An untouched depot seeded before the operator and its area were recorded gets them (as above).
      await m.query(
        `UPDATE station SET operator_id = coalesce(operator_id, $2), area_sqm = coalesce(area_sqm, $3)
          WHERE id = $1 AND (operator_id IS NULL OR area_sqm IS NULL) AND updated_at = created_at`,
        [station.id, operatorId, depot.areaSqm],
      );
      if (station.created) {
        await m.query(
          `INSERT INTO station_label (station_id, label_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
          [station.id, labelIds],
        );
      }
      await m.query(
        `INSERT INTO station_price_plan (station_id, plan_id, effective_from) VALUES ($1, $2, 'epoch')
         ON CONFLICT (station_id, effective_from) DO NOTHING`,
        [station.id, plan.id],
      );
      // 10 piles of 240 kW: 2.4 MW connected, on a 2500 kVA box transformer.
      const transformer = await ensure(
        m,
        'box_transformer',
        { station_id: station.id, name: `${depot.shortName}1#箱变` },
        () => ({
          capacity_kva: 2500,
          type: 'YBM-12/0.4-2500',
          organization_id: organizationId,
        }),
      );
      const gunIds: number[] = [];

      for (let p = 0; p < PILES_PER_DEPOT; p++) {
        const chargePointId = piles[d * PILES_PER_DEPOT + p];
        const pile = await ensure(m, 'charging_pile', { charge_point_id: chargePointId }, async () => ({
          station_id: station.id,
          transformer_id: transformer.id,
          manufacturer_id: pileMakerId,
          name: `${depot.shortName}${p + 1}号充电桩`,
          number: chargePointId,
          // What the assets api stores for the password: the keyed hash under the deployment's key.
          ocpp_password_hash: pilePasswordHasherFromEnv().hash(DEMO_PILE_PASSWORD),
          type: CHARGER_TYPE_DC,
          max_power_w: 240_000,
          rated_power_w: 240_000,
          voltage_v: 750,
          current_a: 320,
          device_status: DEVICE_STATUS_NORMAL,
          gun_count: 2,
          protocol_version: 'ocpp1.6',
          national_standard: NATIONAL_STANDARD_2015,
          model: 'DC-240',
          payment_mode: PAYMENT_POSTPAID,
          supports_reservation: false,
          organization_id: organizationId,
        }));
        if (pile.created) {
          // GatewayRegistryRepository.syncPile: the registry row commits with the pile.
          await m.query(
            `INSERT INTO pile_registry (charge_point_id, state, password_hash)
             SELECT charge_point_id, $2, ocpp_password_hash FROM charging_pile WHERE id = $1
             ON CONFLICT (charge_point_id) DO UPDATE
               SET state = EXCLUDED.state, password_hash = EXCLUDED.password_hash, password_rehashed_from = NULL`,
            [pile.id, gatewayStateOf(DEVICE_STATUS_NORMAL)],
          );
        }
        for (const channel of [1, 2]) {
          const gun = await ensure(m, 'charging_gun', { pile_id: pile.id, channel_number: channel }, () => ({
            name: `${channel}号枪`,
            qr_code: `https://voltdepot.example/charge/${chargePointId}/${channel}`,
            connector_type: CONNECTOR_TYPE_DC,
            max_voltage_v: 750,
            min_voltage_v: 200,
            rated_voltage_v: 750,
            rated_current_a: 160,
            rated_power_w: 120_000,
            bms_power: BMS_POWER_24V,
            organization_id: organizationId,
          }));
          gunIds.push(gun.id);
        }
      }
      seededStations.push({ id: station.id, code: depot.code, shortName: depot.shortName, gunIds });
    }
    // Earlier seeds typed the demo's DC piles 1 (AC): an untouched pile gets its real type.
    await m.query(
      `UPDATE charging_pile SET type = $2 WHERE charge_point_id = ANY($1) AND type = $3 AND updated_at = created_at`,
      [piles, CHARGER_TYPE_DC, CHARGER_TYPE_AC],
    );
    await seedDemoBasicData(m, organizationId, seededStations);
    await seedDemoMessages(m);

    for (const bus of demoVehicles()) {
      const vehicle = await ensure(m, 'vehicle', { vin: bus.vin }, () => ({
        plate: bus.plate,
        self_number: bus.selfNumber,
        manufacturer_id: carMakerId,
        company_id: companyId,
        fleet_id: fleetIds[bus.fleet],
        line_id: lineIds[bus.fleet][bus.line],
        battery_capacity_wh: bus.batteryCapacityWh,
        working_voltage_v: 540,
        working_current_a: 300,
        battery_pack_type: '磷酸铁锂',
        vehicle_model: 'HFB6120BEV',
        day_charging: true,
        night_charging: true,
        daily_trips: 6,
        supplementary_soc: bus.supplementarySoc,
        organization_id: organizationId,
      }));
      // Day charging (midday top-ups) came later: an untouched bus of an earlier seed gets it.
      await m.query(
        `UPDATE vehicle SET day_charging = true WHERE id = $1 AND NOT day_charging AND updated_at = created_at`,
        [vehicle.id],
      );
      const card = await ensure(m, 'charging_card', { physical_number: bus.card }, () => ({
        type: CARD_TYPE_CHARGING,
        self_number: `C${bus.card}`,
        cardholder: `${bus.plate} 驾驶员`,
        description: `${bus.plate} 充电卡`,
        status: CARD_STATUS_NORMAL,
        vehicle_id: vehicle.id,
        organization_id: organizationId,
      }));
      if (card.created) {
        // IdTagRepository.upsert: idTag = physical number, status from the card's, no expiry.
        await m.query(
          `INSERT INTO id_tag (id_tag, status, expiry_date) VALUES ($1, $2, $3)
           ON CONFLICT (id_tag) DO UPDATE SET status = EXCLUDED.status, expiry_date = EXCLUDED.expiry_date, updated_at = now()`,
          [bus.card, idTagStatusOf(CARD_STATUS_NORMAL), null],
        );
      }
    }
  });
  // After the bus cards: the IC cards and their money go through the ledger, in its own transactions.
  await seedDemoIcCards(dataSource);
}

const ABNORMAL: StopReason[] = ['EmergencyStop', 'PowerLoss', 'Other'];
const MINUTE = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];

/** What the simulation reads from the seeded records: the business time zone, the buses and the guns. */
export type DemoFleet = {
  timeZone: string;
  /** Battery capacity (Wh) of the bus each card belongs to, as its vehicle record says. */
  capacityWhByCard: Map<string, number>;
  /** Day charging and supplementary SoC threshold of the bus each card belongs to (its vehicle record). */
  busByCard: Map<string, DemoBus>;
  /** Rated power (W) of each gun, keyed `chargePointId/connector`. */
  ratedPowerWByGun: Map<string, number>;
};

const gunKey = (chargePointId: string, connectorId: number) => `${chargePointId}/${connectorId}`;

export async function loadDemoFleet(dataSource: DataSource): Promise<DemoFleet> {
  const [zone] = (await dataSource.query(
    `SELECT config_value FROM sys_platform_config WHERE config_key = 'businessTimeZone'`,
  )) as { config_value: string }[];
  const buses = (await dataSource.query(
    `SELECT c.physical_number, v.battery_capacity_wh, v.day_charging, v.supplementary_soc
       FROM charging_card c JOIN vehicle v ON v.id = c.vehicle_id
      WHERE c.physical_number = ANY($1)`,
    [busCards()],
  )) as {
    physical_number: string;
    battery_capacity_wh: number | null;
    day_charging: boolean | null;
    supplementary_soc: number | null;
  }[];
  const guns = (await dataSource.query(
    `SELECT p.charge_point_id, g.channel_number, coalesce(g.rated_power_w, p.rated_power_w / p.gun_count) AS rated
       FROM charging_gun g JOIN charging_pile p ON p.id = g.pile_id WHERE p.charge_point_id = ANY($1)`,
    [pileIds()],
  )) as { charge_point_id: string; channel_number: number; rated: number | null }[];
  const seeded = new Map(demoVehicles().map((v) => [v.card, v.batteryCapacityWh]));
  return {
    timeZone: zone?.config_value || 'Asia/Shanghai',
    capacityWhByCard: new Map(
      busCards().map((card) => {
        const row = buses.find((b) => b.physical_number === card);
        return [card, Number(row?.battery_capacity_wh ?? seeded.get(card) ?? 350_000)];
      }),
    ),
    busByCard: new Map(
      buses.map((b) => [
        b.physical_number,
        {
          dayCharging: b.day_charging ?? DEFAULT_DEMO_BUS.dayCharging,
          supplementarySoc: Number(b.supplementary_soc ?? DEFAULT_DEMO_BUS.supplementarySoc),
        },
      ]),
    ),
    ratedPowerWByGun: new Map(
      guns.map((g) => [gunKey(g.charge_point_id, Number(g.channel_number)), Number(g.rated ?? 120_000)]),
    ),
  };
}

/**
 * The latest time the demo piles have reported (their statuses, transactions and meter samples), if any:
 * a restarted demo starts its clock after it, as the read models keep what is newest by the piles' time.
 */
export async function lastDemoTimestamp(dataSource: DataSource): Promise<number | undefined> {
  const [row] = (await dataSource.query(
    `SELECT greatest(
       (SELECT max(status_at) FROM connector_status WHERE charge_point_id = ANY($1)),
       -- stopped_at is the gateway's time for a session it closed by rule (no StopTransaction yet): not the pile's.
       (SELECT max(greatest(started_at, CASE WHEN meter_stop_wh IS NOT NULL THEN stopped_at END))
          FROM ocpp_transaction WHERE charge_point_id = ANY($1)),
       (SELECT max(s.last) FROM unnest($1::text[]) AS cp(id) CROSS JOIN generate_series(1, 2) AS gun(n)
          CROSS JOIN LATERAL (SELECT max(sampled_at) AS last FROM ocpp_meter_sample
                               WHERE charge_point_id = cp.id AND connector_id = gun.n) s)
     ) AS last`,
    [pileIds()],
  )) as { last: Date | null }[];
  return row?.last ? new Date(row.last).getTime() : undefined;
}

export type DemoSimulationOptions = {
  ocppUrl: string;
  /** The depot clock every pile message carries. */
  clock: DepotClock;
  fleet: DemoFleet;
  /** Chance that a gun faults instead of charging the bus that pulls in. */
  faultRate: number;
  /** Chance that a session ends abnormally part-way. */
  abnormalRate: number;
  /** Real ms between two meter ticks (default 5 s); samples are at least a depot minute apart. */
  meterIntervalMs?: number;
  log?: (line: string) => void;
};

export type DemoSimulation = {
  piles: SimulatedPile[];
  clock: DepotClock;
  /** Settles when every gun's loop has ended (after `stop()`). */
  running: Promise<void>;
  /** Ends the guns' loops, waits up to 5 s for queued transaction messages, closes the piles. */
  stop(): Promise<void>;
};

const busOf = (fleet: DemoFleet, card: string): DemoBus => fleet.busByCard.get(card) ?? DEFAULT_DEMO_BUS;

/**
 * One gun's bus: it is on the gun at the start (`opening`) or returns (evening-weighted, midday top-ups),
 * charges to its target, stays plugged a while, leaves.
 */
async function runGun(
  pile: SimulatedPile,
  connectorId: number,
  card: string,
  opening: OpeningVisit | undefined,
  options: DemoSimulationOptions,
  stopped: () => boolean,
): Promise<void> {
  const { clock, fleet } = options;
  const bus = busOf(fleet, card);
  const capacityWh = fleet.capacityWhByCard.get(card) ?? 350_000;
  const ratedPowerW = fleet.ratedPowerWByGun.get(gunKey(pile.chargePointId, connectorId)) ?? 120_000;
  let after = clock.now();
  let first = opening;
  while (!stopped()) {
    const arrival = first ?? nextArrival(after, fleet.timeZone, Math.random, bus);
    const visit = first ?? visitOf(arrival.kind, Math.random, bus);
    // A bus already on its gun at the start is charging: no fault stands in its way.
    const faultRate = first ? 0 : options.faultRate;
    first = undefined;
    await clock.sleepUntil(arrival.at, stopped);
    if (stopped()) break;
    while (!pile.online && !stopped()) await sleep(1_000);
    if (stopped()) break;
    if (Math.random() < faultRate) {
      // The bus finds its gun faulted and goes to another depot; a technician clears it within the hour.
      await pile.reportFault(connectorId, pick(DEMO_FAULTS)).catch(() => undefined);
      await clock.sleepFor(between(15, 60) * MINUTE, stopped);
      await pile.clearFault(connectorId).catch(() => undefined);
      after = clock.now();
      continue;
    }
    const session = await pile
      .startSession(connectorId, card, {
        startSoc: visit.startSoc,
        targetSoc: visit.targetSoc,
        capacityWh,
        maxPowerW: sessionPowerW(ratedPowerW),
        // The pile ends the session when the bus is full; the bus stays plugged in until moved.
        fullStopReason: 'Local',
        holdAfterStop: true,
      })
      .catch((error: Error) => options.log?.(`${pile.chargePointId}/${connectorId}: ${error.message}`));
    if (!session) {
      after = clock.now() + 10 * MINUTE;
      continue;
    }
    const abnormalAt =
      Math.random() < options.abnormalRate ? clock.now() + between(10, 90) * MINUTE : Infinity;
    while (!session.stoppedAt && !stopped()) {
      if (clock.now() >= abnormalAt) {
        await pile.stopSession(connectorId, pick(ABNORMAL)).catch(() => undefined);
        break;
      }
      await sleep(500);
    }
    if (stopped()) break;
    await clock.sleepFor(dwellAfterStopMs(), stopped);
    await pile.unplug(connectorId).catch(() => undefined);
    after = clock.now();
  }
}

/** Connects the 20 demo piles and runs their 40 guns' buses on the depot clock. */
export async function startDemoSimulation(options: DemoSimulationOptions): Promise<DemoSimulation> {
  let stopping = false;
  const stopped = () => stopping;
  const piles = pileIds().map(
    (chargePointId) =>
      new SimulatedPile({
        url: options.ocppUrl,
        chargePointId,
        password: DEMO_PILE_PASSWORD,
        connectors: 2,
        vendor: 'Voltdepot',
        model: 'DC-240',
        clock: options.clock,
        meterIntervalMs: options.meterIntervalMs ?? 5_000,
        minSampleSpacingMs: MINUTE,
        maxPowerW: Math.max(
          ...[1, 2].map((gun) => options.fleet.ratedPowerWByGun.get(gunKey(chargePointId, gun)) ?? 120_000),
        ),
        bootRetryMs: 5_000,
        reconnectDelayMs: 3_000,
        log: options.log,
      }),
  );
  await Promise.all(
    piles.map((p) =>
      p.start().catch((error: Error) => options.log?.(`${p.chargePointId}: ${error.message}`)),
    ),
  );
  // Each gun serves its own bus of the 40, so one card never charges twice at once.
  const cards = piles.flatMap((_, p) => [1, 2].map((gun) => busCards()[(p * 2 + gun - 1) % 40]));
  const openings = openingVisits(
    options.clock.now(),
    options.fleet.timeZone,
    cards.map((card) => busOf(options.fleet, card)),
  );
  const running = Promise.all(
    piles.flatMap((pile, p) =>
      [1, 2].map((gun) => {
        const i = p * 2 + gun - 1;
        return runGun(pile, gun, cards[i], openings[i], options, stopped);
      }),
    ),
  ).then(() => undefined);
  const stop = async () => {
    stopping = true;
    await running;
    await Promise.all(
      piles.map((p) =>
        p
          .drained(5_000)
          .catch(() => undefined)
          .then(() => p.stop()),
      ),
    );
  };
  return { piles, clock: options.clock, running, stop };
}

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required');
  const dataSource = createDataSource({ url, poolSize: 2, applicationName: 'voltdepot-demo' });
  await dataSource.initialize();
  const simulate = !process.argv.includes('--seed-only') && process.env['DEMO_SIMULATION'] !== 'false';
  let fleet: DemoFleet;
  let lastReported: number | undefined;
  try {
    await seedDemoDepot(dataSource);
    fleet = await loadDemoFleet(dataSource);
    lastReported = simulate ? await lastDemoTimestamp(dataSource) : undefined;
  } finally {
    await dataSource.destroy();
  }
  console.log(
    `demo depot seeded: ${DEMO_DEPOTS.length} stations, ${pileIds().length} piles, ${busCards().length} buses with cards, default price plan, IC cards and accounts, message rules`,
  );
  if (!simulate) return;

  const ocppUrl = process.env['OCPP_URL'] ?? 'ws://127.0.0.1:9000/ocpp';
  const speed = Number(process.env['DEMO_TIME_SCALE'] ?? 120);
  const replayHours = process.env['DEMO_REPLAY_HOURS'];
  const clock = new DepotClock({
    startAt: demoClockStart(
      Date.now(),
      fleet.timeZone,
      replayHours === undefined || replayHours === '' ? undefined : Number(replayHours),
      lastReported,
    ),
    speed,
  });
  const simulation = await startDemoSimulation({
    ocppUrl,
    clock,
    fleet,
    faultRate: Number(process.env['DEMO_FAULT_RATE'] ?? 0.03),
    abnormalRate: Number(process.env['DEMO_ABNORMAL_RATE'] ?? 0.08),
    log: (line) => console.error(line),
  });
  const shutdown = async () => {
    await simulation.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  const local = (ms: number) =>
    new Date(ms).toLocaleString('sv-SE', { timeZone: fleet.timeZone }).slice(0, 16);
  console.log(
    `demo simulation running: ${simulation.piles.length} piles x 2 guns against ${ocppUrl}; depot clock from ${local(clock.startAt)} at x${clock.speed} until it catches up with real time (${local(clock.caughtUpAt)})`,
  );
  const untilLive = clock.caughtUpAt - Date.now();
  if (untilLive < 2 ** 31 - 1)
    setTimeout(
      () => console.log('demo depot clock caught up with real time: the simulation runs live'),
      Math.max(0, untilLive),
    ).unref();
  await simulation.running;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
