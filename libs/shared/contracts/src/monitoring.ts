/**
 * Shapes of live monitoring (business-areas §2 station, pile and bus monitoring; §4 gun and vehicle
 * states): the api's read routes under /api/monitor, the STOMP pushes of msg-center and the pile
 * commands. Power in W, energy in Wh (integers), SoC in percent, instants ISO-8601.
 */
import type { GridPage } from './grid';

/** business-areas §4 gun status (dictionary `gun_status`), in the spec's order. */
export const GUN_STATUSES = [
  'idle',
  'reservation',
  'connected',
  'charging',
  'stopCharging',
  'fault',
  'offline',
] as const;
export type GunStatus = (typeof GUN_STATUSES)[number];

/**
 * business-areas §4 vehicle charging status (dictionary `vehicle_charge_status`). A charge at a pile is a
 * `drivingCharge` when the vehicle is in service (operational: charging between runs), a `parkingCharge`
 * when it is not (depot charging).
 */
export const VEHICLE_CHARGE_STATUSES = ['uncharged', 'parkingCharge', 'drivingCharge', 'complete'] as const;
export type VehicleChargeStatus = (typeof VEHICLE_CHARGE_STATUSES)[number];

/** business-areas §9: a vehicle whose SoC is below this percentage is a low-SoC vehicle. */
export const LOW_SOC_PERCENT = 30;

/** STOMP destination of one station's live changes: `/topic/monitor/station/{stationId}`. */
export const MONITOR_STATION_TOPIC_PREFIX = '/topic/monitor/station/';
export const monitorStationTopic = (stationId: number): string =>
  `${MONITOR_STATION_TOPIC_PREFIX}${stationId}`;

export type MonitorVehicleRef = { id: number; plate: string; selfNumber: string | null };

export type MonitorGunView = {
  /** The gun's asset id; null for a connector the pile reports but no gun record describes. */
  gunId: number | null;
  name: string | null;
  /** OCPP connector id = the gun's charging port channel number. */
  connectorId: number;
  status: GunStatus;
  /** The OCPP 1.6 status the pile last reported (null: none yet). */
  ocppStatus: string | null;
  errorCode: string | null;
  info: string | null;
  /** Since when the gun has been in `status`. */
  since: string | null;
  transactionId: number | null;
  idTag: string | null;
  sessionStartedAt: string | null;
  /** Power drawn now (0 once the session stopped). */
  powerW: number | null;
  /** Energy of the session so far (or in total once stopped). */
  energyWh: number | null;
  soc: number | null;
  /** When the last meter sample of the session was taken. */
  sampledAt: string | null;
  vehicle: MonitorVehicleRef | null;
};

export type MonitorPileView = {
  /** The host's asset id; null for a charge point not (or no longer) registered. */
  pileId: number | null;
  chargePointId: string;
  name: string | null;
  number: string | null;
  stationId: number | null;
  stationName: string | null;
  /** Device status code of the host (business-areas §4: 1, 5, 6, 50). */
  deviceStatus: number | null;
  online: boolean;
  /** Since when the pile has been online (or offline). */
  onlineSince: string | null;
  /** The latest event the pile caused. */
  lastSeenAt: string | null;
  vendor: string | null;
  model: string | null;
  firmwareVersion: string | null;
  /** The status of connector 0 (the pile as a whole), when reported. */
  ocppStatus: string | null;
  guns: MonitorGunView[];
};

export type GunStatusCounts = Record<GunStatus, number>;

export type MonitorStationSummary = {
  id: number;
  number: string;
  name: string;
  address: string;
  longitude: number;
  latitude: number;
  /** Station status code (business-areas §4: 0 in use .. 3 disabled). */
  status: number;
  pilesOnline: number;
  pilesTotal: number;
  guns: GunStatusCounts;
};

export type MonitorStationView = MonitorStationSummary & { piles: MonitorPileView[] };

/** One STOMP MESSAGE on a station topic: the piles whose state changed, whole (with their guns). */
export type MonitorPush = { stationId: number; at: string; piles: MonitorPileView[] };

export type MonitorVehicleView = {
  id: number;
  plate: string;
  vin: string;
  selfNumber: string | null;
  companyName: string | null;
  fleetName: string | null;
  lineName: string | null;
  batteryCapacityWh: number | null;
  /** business-areas §4 operational status: the vehicle is in service. */
  operational: boolean;
  chargeStatus: VehicleChargeStatus;
  soc: number | null;
  socAt: string | null;
  lowSoc: boolean;
  /** The latest session (current or last) of the vehicle, if any. */
  chargePointId: string | null;
  connectorId: number | null;
  stationId: number | null;
  stationName: string | null;
  powerW: number | null;
  energyWh: number | null;
  sessionStartedAt: string | null;
  sessionEndedAt: string | null;
};

export type MonitorVehiclePage = GridPage<MonitorVehicleView> & {
  /** Over every vehicle matching the filters (not just this page). */
  summary: { lowSoc: number; byStatus: Record<VehicleChargeStatus, number> };
  /** Stations of the caller's data scope: subscribe to their topics to refresh the list live. */
  stationIds: number[];
};

export type MonitorPilePage = GridPage<MonitorPileView>;

/** The OCPP commands the monitoring screens send (business-areas §2: start/stop, reset, unlock, availability). */
export const PILE_COMMAND_ACTIONS = [
  'RemoteStartTransaction',
  'RemoteStopTransaction',
  'Reset',
  'UnlockConnector',
  'ChangeAvailability',
] as const;
export type PileCommandAction = (typeof PILE_COMMAND_ACTIONS)[number];

export type PileCommandBodies = {
  RemoteStartTransaction: { connectorId: number; idTag: string };
  RemoteStopTransaction: { transactionId: number };
  Reset: { type: 'Hard' | 'Soft' };
  UnlockConnector: { connectorId: number };
  ChangeAvailability: { connectorId: number; type: 'Inoperative' | 'Operative' };
};

/** What the pile answered (its OCPP confirmation, e.g. `{ status: 'Accepted' }`). */
export type PileCommandResult = { status: 'completed'; response: unknown };

/** The permission to command piles (migration 1763860000000-pile-command-resource). */
export const PILE_COMMAND_PERMISSION = 'pile:command';

/** Resource codes of the three monitoring screens (seeded under the "operation" menu). */
export const MONITOR_PERMISSIONS = {
  station: 'operation:stationMonitor',
  pile: 'operation:pileMonitor',
  bus: 'operation:busList',
} as const;
