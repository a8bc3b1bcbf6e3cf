import type { MonitorPileView } from '@voltdepot/shared-contracts';

/**
 * Live counts of a data scope (the home page's figures): a station is online while one of its piles is,
 * a gun while its status is anything but offline. Faults are the piles and guns whose live status is
 * `fault` now (a pile that faulted as a whole shows all its guns faulted).
 */
export type LiveFigures = {
  stations: { online: number; total: number };
  piles: { online: number; total: number };
  guns: { online: number; total: number; charging: number };
  faults: { piles: number; guns: number };
};

export function liveFigures(stationIds: number[], piles: MonitorPileView[]): LiveFigures {
  const onlineStations = new Set(piles.filter((p) => p.online).map((p) => p.stationId));
  const guns = piles.flatMap((p) => p.guns);
  return {
    stations: { online: stationIds.filter((id) => onlineStations.has(id)).length, total: stationIds.length },
    piles: { online: piles.filter((p) => p.online).length, total: piles.length },
    guns: {
      online: guns.filter((g) => g.status !== 'offline').length,
      total: guns.length,
      charging: guns.filter((g) => g.status === 'charging').length,
    },
    faults: {
      piles: piles.filter((p) => p.guns.some((g) => g.status === 'fault')).length,
      guns: guns.filter((g) => g.status === 'fault').length,
    },
  };
}
