import {
  MONITOR_PERMISSIONS,
  MONITOR_STATION_TOPIC_PREFIX,
  type MonitorPush,
} from '@voltdepot/shared-contracts';
import type { PermissionLookup } from '@voltdepot/server-core';
import type {
  MonitoringAssetsRepository,
  MonitoringDataScopeProvider,
} from '../assets/monitoring-assets.repository';
import { ReadModelKeys } from '../read-model/read-model.keys';

/** The Redis pub/sub channel on which the projector announces changes (MonitorPush JSON). */
export function monitorFeedChannel(busPrefix: string): string {
  return ReadModelKeys.forBusPrefix(busPrefix).feedChannel;
}

/** The station id of a `/topic/monitor/station/{id}` destination; undefined for any other destination. */
export function stationOfTopic(destination: string): number | undefined {
  if (!destination.startsWith(MONITOR_STATION_TOPIC_PREFIX)) return undefined;
  const rest = destination.slice(MONITOR_STATION_TOPIC_PREFIX.length);
  return /^[1-9][0-9]{0,9}$/.test(rest) ? Number(rest) : undefined;
}

/** A feed message, checked enough to forward it (it comes from our own projector over Redis). */
export function parseMonitorPush(raw: string): MonitorPush | undefined {
  try {
    const value = JSON.parse(raw) as Partial<MonitorPush>;
    return Number.isInteger(value.stationId) && Array.isArray(value.piles)
      ? (value as MonitorPush)
      : undefined;
  } catch {
    return undefined;
  }
}

export type WatchDecision = { allowed: true } | { allowed: false; reason: string };

export type StationWatchOptions = {
  /**
   * How long what a user may watch is reused (ms, default 5,000): a screen subscribes to every station of
   * its map at once, and each SUBSCRIBE would otherwise read permissions and scope again. A permission or
   * scope taken away applies to new subscriptions after at most this long.
   */
  cacheMs?: number;
  now?: () => number;
};

/** What one user may watch: whether they hold a monitoring permission, and the stations of their scope. */
type Watchable = { permitted: boolean; stations: ReadonlySet<number> };

const WATCH_PERMISSIONS = Object.values(MONITOR_PERMISSIONS);

/**
 * Who may watch a station's live changes: a holder of one of the monitoring screens' permissions whose
 * data scope contains the station (the same rule as the screens' reads).
 */
export class StationWatchPolicy {
  private readonly recent = new Map<number, { until: number; watchable: Promise<Watchable> }>();

  constructor(
    private readonly assets: Pick<MonitoringAssetsRepository, 'stationIdsInScope'>,
    private readonly scopes: MonitoringDataScopeProvider,
    private readonly permissions: PermissionLookup,
    private readonly options: StationWatchOptions = {},
  ) {}

  async decide(userId: number, stationId: number): Promise<WatchDecision> {
    const { permitted, stations } = await this.watchableBy(userId);
    if (!permitted) {
      return { allowed: false, reason: `Missing permission: one of ${WATCH_PERMISSIONS.join(', ')}` };
    }
    if (!stations.has(stationId)) return { allowed: false, reason: `Station ${stationId} does not exist` };
    return { allowed: true };
  }

  private watchableBy(userId: number): Promise<Watchable> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.recent.get(userId);
    if (cached && cached.until > now) return cached.watchable;
    for (const [id, entry] of this.recent) if (entry.until <= now) this.recent.delete(id);
    const entry = { until: now + (this.options.cacheMs ?? 5_000), watchable: this.read(userId) };
    this.recent.set(userId, entry);
    // A failed read (database down) is not remembered: the next SUBSCRIBE tries again.
    entry.watchable.catch(() => {
      if (this.recent.get(userId) === entry) this.recent.delete(userId);
    });
    return entry.watchable;
  }

  private async read(userId: number): Promise<Watchable> {
    const permissions = await this.permissions.permissionsOf(userId);
    if (!permissions || !WATCH_PERMISSIONS.some((code) => permissions.has(code))) {
      return { permitted: false, stations: new Set() };
    }
    const stations = await this.assets.stationIdsInScope(await this.scopes.scopeOf(userId));
    return { permitted: true, stations: new Set(stations) };
  }
}
