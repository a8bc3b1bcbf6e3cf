import {
  GUN_STATUSES,
  type GunStatus,
  type GunStatusCounts,
  type MonitorPilePage,
  type MonitorPileView,
  type MonitorPush,
  type MonitorStationView,
} from '@voltdepot/shared-contracts';

/** The guns of these piles counted by status. */
export function countGuns(piles: MonitorPileView[]): GunStatusCounts {
  const counts = Object.fromEntries(GUN_STATUSES.map((s) => [s, 0])) as GunStatusCounts;
  for (const pile of piles) for (const gun of pile.guns) counts[gun.status]++;
  return counts;
}

/** Replace the piles a push carries (by charge point id); piles the list does not show stay out. */
export function replacePiles(piles: MonitorPileView[], push: MonitorPush): MonitorPileView[] {
  const fresh = new Map(push.piles.map((p) => [p.chargePointId, p]));
  return piles.map((pile) => fresh.get(pile.chargePointId) ?? pile);
}

/** A station view with a push applied, its counts recomputed; unchanged when the push is another station's. */
export function applyToStation(view: MonitorStationView, push: MonitorPush): MonitorStationView {
  if (push.stationId !== view.id) return view;
  const piles = replacePiles(view.piles, push);
  return { ...view, piles, guns: countGuns(piles), pilesOnline: piles.filter((p) => p.online).length };
}

export function applyToPilePage(page: MonitorPilePage, push: MonitorPush): MonitorPilePage {
  return { ...page, list: replacePiles(page.list, push) };
}

/** Colours of the gun states (antd preset colours), shared by cards, tags, legend and map markers. */
export const GUN_STATUS_COLORS: Record<GunStatus, string> = {
  idle: '#52c41a',
  reservation: '#722ed1',
  connected: '#13c2c2',
  charging: '#1677ff',
  stopCharging: '#fa8c16',
  fault: '#f5222d',
  offline: '#8c8c8c',
};

/** SoC bars of vehicles below the low-SoC threshold (business-areas §9). */
export const LOW_SOC_COLOR = '#f5222d';

/** The colour of a station marker: trouble first, then activity. */
export function stationColor(counts: GunStatusCounts): string {
  if (counts.fault > 0) return GUN_STATUS_COLORS.fault;
  if (counts.charging > 0) return GUN_STATUS_COLORS.charging;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total > 0 && counts.offline === total) return GUN_STATUS_COLORS.offline;
  return GUN_STATUS_COLORS.idle;
}
