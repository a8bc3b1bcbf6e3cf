import type { QueryParams } from '../../request';

export const monitorQueryKeys = {
  all: ['monitoring'] as const,
  stations: () => [...monitorQueryKeys.all, 'stations'] as const,
  station: (id: number) => [...monitorQueryKeys.all, 'station', id] as const,
  pileStations: () => [...monitorQueryKeys.all, 'pile-stations'] as const,
  piles: (page: number, filters: QueryParams) =>
    [...monitorQueryKeys.all, 'piles', { page, ...filters }] as const,
  vehiclesAll: () => [...monitorQueryKeys.all, 'vehicles'] as const,
  vehicles: (page: number, filters: QueryParams) =>
    [...monitorQueryKeys.vehiclesAll(), { page, ...filters }] as const,
};
