import { apiPath, type ApiResponse } from '@voltdepot/console-api-client';
import type { PileCommandAction, PileCommandBodies } from '@voltdepot/shared-contracts';
import {
  request as defaultRequest,
  type FileResult,
  type QueryParams,
  type RequestClient,
} from '../../../request';

/** Page size of the pile and bus grids. */
export const MONITOR_PAGE_SIZE = 10;

/** The monitoring routes of the api (GET /api/monitor/..., POST .../command/{action}). */
export function createMonitorApi(request: RequestClient = defaultRequest) {
  return {
    async stations(signal?: AbortSignal): Promise<ApiResponse<'MonitoringController_stations'>> {
      return (
        (await request.get<ApiResponse<'MonitoringController_stations'>>(
          apiPath('MonitoringController_stations'),
          {
            signal,
          },
        )) ?? []
      );
    },
    /** The station's record (basic data): its site plan picture and area, for the map's overlay. */
    stationRecord(id: number, signal?: AbortSignal) {
      return request.get<ApiResponse<'StationController_get'>>(apiPath('StationController_get', { id }), {
        signal,
      });
    },
    async picture(stationId: number, pictureId: number, signal?: AbortSignal): Promise<Blob | undefined> {
      const result = await request.request<FileResult>(
        'GET',
        apiPath('StationPicturesController_get', { id: stationId, pictureId }),
        { responseType: 'blob', signal },
      );
      return result?.data;
    },
    station(id: number, signal?: AbortSignal) {
      return request.get<ApiResponse<'MonitoringController_station'>>(
        apiPath('MonitoringController_station', { id }),
        {
          signal,
        },
      );
    },
    async pileStations(signal?: AbortSignal): Promise<ApiResponse<'MonitoringController_pileStations'>> {
      return (
        (await request.get<ApiResponse<'MonitoringController_pileStations'>>(
          apiPath('MonitoringController_pileStations'),
          {
            signal,
          },
        )) ?? []
      );
    },
    async piles(
      page: number,
      size: number,
      params: QueryParams,
      signal?: AbortSignal,
    ): Promise<ApiResponse<'MonitoringController_piles'>> {
      return (
        (await request.get<ApiResponse<'MonitoringController_piles'>>(
          apiPath('MonitoringController_piles', { page, size }),
          {
            params,
            signal,
          },
        )) ?? {
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
    ): Promise<ApiResponse<'MonitoringController_vehicles'>> {
      return (
        (await request.get<ApiResponse<'MonitoringController_vehicles'>>(
          apiPath('MonitoringController_vehicles', { page, size }),
          {
            params,
            signal,
          },
        )) ?? {
          list: [],
          total: 0,
          summary: { lowSoc: 0, byStatus: { uncharged: 0, parkingCharge: 0, drivingCharge: 0, complete: 0 } },
          stationIds: [],
        }
      );
    },
    /** Resolves with the pile's answer; the request layer has shown the error of a failed command. */
    command<A extends PileCommandAction>(chargePointId: string, action: A, body: PileCommandBodies[A]) {
      return request.post<ApiResponse<'MonitoringController_command'>>(
        apiPath('MonitoringController_command', { chargePointId, action }),
        body,
      );
    },
  };
}

export type MonitorApi = ReturnType<typeof createMonitorApi>;
export const monitorApi = createMonitorApi();
