export const monitorQueryKeys = {
  all: ['monitoring'] as const,
  stations: () => [...monitorQueryKeys.all, 'stations'] as const,
  station: (id: number) => [...monitorQueryKeys.all, 'station', id] as const,
  /** A station's site plan (record and image). */
  sitePlan: (id: number) => [...monitorQueryKeys.all, 'site-plan', id] as const,
  pileStations: () => [...monitorQueryKeys.all, 'pile-stations'] as const,
  /** Every page of the pile list (live changes apply to each). */
  piles: () => [...monitorQueryKeys.all, 'piles'] as const,
  /** Every page of the bus list. */
  vehicles: () => [...monitorQueryKeys.all, 'vehicles'] as const,
};
