import { apiPath } from '@voltdepot/console-api-client';
import type {
  MonitorPilePage,
  MonitorStationSummary,
  MonitorStationView,
  MonitorVehiclePage,
  PileCommandAction,
  PileCommandBodies,
  PileCommandResult,
} from '@voltdepot/shared-contracts';
import { request as defaultRequest, type QueryParams, type RequestClient } from '../../../request';

/** Page size of the pile and bus grids. */
export const MONITOR_PAGE_SIZE = 10;

/** The monitoring routes of the api (GET /api/monitor/..., POST .../command/{action}). */
export function createMonitorApi(request: RequestClient = defaultRequest) {
  return {
    async stations(signal?: AbortSignal): Promise<MonitorStationSummary[]> {
      return (
        (await request.get<MonitorStationSummary[]>(apiPath('MonitoringController_stations'), { signal })) ??
        []
      );
    },
    station(id: number, signal?: AbortSignal): Promise<MonitorStationView | undefined> {
      return request.get<MonitorStationView>(apiPath('MonitoringController_station', { id }), { signal });
    },
    async pileStations(signal?: AbortSignal): Promise<{ id: number; name: string }[]> {
      return (
        (await request.get<{ id: number; name: string }[]>(apiPath('MonitoringController_pileStations'), {
          signal,
        })) ?? []
      );
    },
    async piles(
      page: number,
      size: number,
      params: QueryParams,
      signal?: AbortSignal,
    ): Promise<MonitorPilePage> {
      return (
        (await request.get<MonitorPilePage>(apiPath('MonitoringController_piles', { page, size }), {
          params,
          signal,
        })) ?? {
          list: [],
          total: 0,
        }
      );
    },
    async vehicles(
      page: number,
      size: number,
      params: QueryParams,
      signal?: AbortSignal,
    ): Promise<MonitorVehiclePage> {
      return (
        (await request.get<MonitorVehiclePage>(apiPath('MonitoringController_vehicles', { page, size }), {
          params,
          signal,
        })) ?? {
          list: [],
          total: 0,
          summary: { lowSoc: 0, byStatus: { uncharged: 0, parkingCharge: 0, drivingCharge: 0, complete: 0 } },
          stationIds: [],
        }
      );
    },
    /** Resolves with the pile's answer; the request layer has shown the error of a failed command. */
    command<A extends PileCommandAction>(
      chargePointId: string,
      action: A,
      body: PileCommandBodies[A],
    ): Promise<PileCommandResult | undefined> {
      return request.post<PileCommandResult>(
        apiPath('MonitoringController_command', { chargePointId, action }),
        body,
      );
    },
  };
}

export type MonitorApi = ReturnType<typeof createMonitorApi>;
export const monitorApi = createMonitorApi();
