import { apiSchemas, exactly, gridPageOf, view } from '@voltdepot/server-core';
import {
  GUN_STATUSES,
  VEHICLE_CHARGE_STATUSES,
  type MonitorGunView,
  type MonitorPileView,
  type MonitorStationSummary,
  type MonitorStationView,
  type MonitorVehiclePage,
  type MonitorVehicleView,
} from '@voltdepot/shared-contracts';
import { z } from 'zod';

// The answers of /api/monitor, each exactly its shared-contracts type (the STOMP pushes share them).
// Power in W, energy in Wh (integers), SoC in percent, instants ISO 8601.

const id = z.number().int();
const count = z.number().int().min(0);

export const monitorGunViewSchema = apiSchemas.named(
  'MonitorGunView',
  exactly<MonitorGunView>()(
    view({
      gunId: id.nullable().describe('null for a connector the pile reports but no gun record describes'),
      name: z.string().nullable(),
      connectorId: z.number().int().describe("OCPP connector id = the gun's charging port channel number"),
      status: z.enum(GUN_STATUSES),
      ocppStatus: z.string().nullable().describe('The OCPP 1.6 status the pile last reported'),
      errorCode: z.string().nullable(),
      info: z.string().nullable(),
      since: z.string().nullable(),
      transactionId: z.number().int().nullable(),
      idTag: z.string().nullable(),
      sessionStartedAt: z.string().nullable(),
      powerW: z.number().nullable(),
      energyWh: z.number().nullable(),
      soc: z.number().nullable(),
      sampledAt: z.string().nullable(),
      vehicle: view({ id, plate: z.string(), selfNumber: z.string().nullable() }).nullable(),
    }),
  ),
);

export const monitorPileViewSchema = apiSchemas.named(
  'MonitorPileView',
  exactly<MonitorPileView>()(
    view({
      pileId: id.nullable().describe('null for a charge point not (or no longer) registered'),
      chargePointId: z.string(),
      name: z.string().nullable(),
      number: z.string().nullable(),
      stationId: id.nullable(),
      stationName: z.string().nullable(),
      deviceStatus: z.number().int().nullable(),
      online: z.boolean(),
      onlineSince: z.string().nullable(),
      lastSeenAt: z.string().nullable(),
      vendor: z.string().nullable(),
      model: z.string().nullable(),
      firmwareVersion: z.string().nullable(),
      ocppStatus: z.string().nullable(),
      guns: z.array(monitorGunViewSchema),
    }),
  ),
);
export const monitorPilePageSchema = gridPageOf('MonitorPilePage', monitorPileViewSchema);

const stationSummaryShape = {
  id,
  number: z.string(),
  name: z.string(),
  address: z.string(),
  longitude: z.number(),
  latitude: z.number(),
  status: z.number().int(),
  pilesOnline: count,
  pilesTotal: count,
  guns: view({
    idle: count,
    reservation: count,
    connected: count,
    charging: count,
    stopCharging: count,
    fault: count,
    offline: count,
  }).describe('Guns by status'),
};

export const monitorStationSummarySchema = apiSchemas.named(
  'MonitorStationSummary',
  exactly<MonitorStationSummary>()(view(stationSummaryShape)),
);

export const monitorStationViewSchema = apiSchemas.named(
  'MonitorStationView',
  exactly<MonitorStationView>()(view({ ...stationSummaryShape, piles: z.array(monitorPileViewSchema) })),
);

export const monitorStationOptionSchema = apiSchemas.named(
  'MonitorStationOption',
  view({ id, name: z.string() }),
);

export const monitorVehicleViewSchema = apiSchemas.named(
  'MonitorVehicleView',
  exactly<MonitorVehicleView>()(
    view({
      id,
      plate: z.string(),
      vin: z.string(),
      selfNumber: z.string().nullable(),
      companyName: z.string().nullable(),
      fleetName: z.string().nullable(),
      lineName: z.string().nullable(),
      batteryCapacityWh: z.number().nullable(),
      operational: z.boolean().describe('The vehicle is in service'),
      chargeStatus: z.enum(VEHICLE_CHARGE_STATUSES),
      soc: z.number().nullable(),
      socAt: z.string().nullable(),
      lowSoc: z.boolean(),
      chargePointId: z.string().nullable(),
      connectorId: z.number().int().nullable(),
      stationId: id.nullable(),
      stationName: z.string().nullable(),
      powerW: z.number().nullable(),
      energyWh: z.number().nullable(),
      sessionStartedAt: z.string().nullable(),
      sessionEndedAt: z.string().nullable(),
    }),
  ),
);

export const monitorVehiclePageSchema = apiSchemas.named(
  'MonitorVehiclePage',
  exactly<MonitorVehiclePage>()(
    view({
      list: z.array(monitorVehicleViewSchema),
      total: count,
      summary: view({
        lowSoc: count,
        byStatus: view({ uncharged: count, parkingCharge: count, drivingCharge: count, complete: count }),
      }).describe('Over every vehicle matching the filters (not just this page)'),
      stationIds: z
        .array(id)
        .describe("Stations of the caller's data scope: subscribe to their topics to refresh the list live"),
    }),
  ),
);

export const pileCommandResultSchema = apiSchemas.named(
  'PileCommandResult',
  view({
    status: z.literal('completed'),
    response: z.unknown().describe("The pile's OCPP confirmation, e.g. { status: 'Accepted' }"),
  }),
);
