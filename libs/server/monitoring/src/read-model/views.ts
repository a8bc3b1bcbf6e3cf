import { LOW_SOC_PERCENT, type GunStatus, type VehicleChargeStatus } from '@voltdepot/shared-contracts';
import { gunStatusOf, showsSession } from './gun-status';
import type { StoredCardSession, StoredGun, StoredPile, StoredTransaction } from './read-model.store';

/** What the read model knows of a pile, before the asset records are joined in. */
export type PileState = {
  chargePointId: string;
  online: boolean;
  onlineSince: string | null;
  lastSeenAt: string | null;
  vendor: string | null;
  model: string | null;
  firmwareVersion: string | null;
  ocppStatus: string | null;
  guns: GunState[];
};

export type GunState = {
  connectorId: number;
  status: GunStatus;
  ocppStatus: string | null;
  errorCode: string | null;
  info: string | null;
  since: string | null;
  transactionId: number | null;
  idTag: string | null;
  sessionStartedAt: string | null;
  powerW: number | null;
  energyWh: number | null;
  soc: number | null;
  sampledAt: string | null;
};

type HistoryEntry<T> = { at: string; data: T };
type StatusData = { s: string; e: string; i: string | null };
type ConnectionData = { k: 'c' | 'd'; s: string; r: string };

/** `{at}|{seq}|{json}` entries of a history sorted set. */
export function parseHistory<T>(member: string): HistoryEntry<T> | undefined {
  const first = member.indexOf('|');
  const second = member.indexOf('|', first + 1);
  if (first < 0 || second < 0) return undefined;
  try {
    return { at: member.slice(0, first), data: JSON.parse(member.slice(second + 1)) as T };
  } catch {
    return undefined;
  }
}

/**
 * Online or not, and since when, from the connection history (oldest first). A disconnection counts only
 * for the connection it belongs to: a pile that reconnected (to another replica, say) before its old
 * socket was noticed closed is still online.
 */
export function connectionState(entries: string[]): { online: boolean; since: string | null } {
  let online = false;
  let connection: string | null = null;
  let since: string | null = null;
  for (const entry of entries.map((m) => parseHistory<ConnectionData>(m))) {
    if (!entry) continue;
    if (entry.data.k === 'c') {
      if (!online) since = entry.at;
      online = true;
      connection = entry.data.s;
    } else if (online && entry.data.s === connection) {
      online = false;
      connection = null;
      since = entry.at;
    } else if (!online && since === null) {
      since = entry.at;
    }
  }
  return { online, since };
}

/** The newest status and since when it holds (the start of the run of equal statuses). */
export function statusRun(
  newestFirst: string[],
): { latest: StatusData; at: string; since: string } | undefined {
  const entries = newestFirst
    .map((m) => parseHistory<StatusData>(m))
    .filter((e): e is HistoryEntry<StatusData> => e !== undefined);
  const [latest] = entries;
  if (!latest) return undefined;
  const current = gunStatusOf(latest.data.s);
  let since = latest.at;
  for (const entry of entries.slice(1)) {
    if (gunStatusOf(entry.data.s) !== current) break;
    since = entry.at;
  }
  return { latest: latest.data, at: latest.at, since };
}

const num = (value: string | undefined): number | null => {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/** Energy of a transaction so far: the stop's figure, else the latest register reading minus the start. */
export function sessionEnergy(fields: Record<string, string>): number | null {
  const energy = num(fields['energyWh']);
  if (energy !== null) return energy;
  const start = num(fields['meterStartWh']);
  const end = num(fields['meterStopWh']) ?? num(fields['registerWh']);
  return start !== null && end !== null ? Math.max(0, end - start) : null;
}

function sampledAt(fields: Record<string, string>): string | null {
  const times = ['registerWh@', 'powerW@', 'soc@'].map((f) => fields[f]).filter((t): t is string => !!t);
  return times.length ? times.sort().at(-1)! : null;
}

function gunState(
  gun: StoredGun,
  pile: { online: boolean; since: string | null; status: ReturnType<typeof statusRun> },
): GunState {
  const run = statusRun(gun.statuses);
  let status: GunStatus = run ? gunStatusOf(run.latest.s) : 'offline';
  let since = run?.since ?? null;
  // The pile as a whole (connector 0) faulted or out of service outranks what a gun last said.
  const whole = pile.status ? gunStatusOf(pile.status.latest.s) : undefined;
  if (whole === 'fault' || whole === 'offline') {
    status = whole;
    since = pile.status!.since;
  }
  if (!pile.online) {
    status = 'offline';
    since = pile.since;
  }
  const tx = gun.transaction;
  // Figures belong to a gun that is in a session (plugged in, charging, finishing), not to an idle one.
  const session = tx && showsSession(status) ? tx : null;
  const open = session !== null && !session.fields['stoppedAt'];
  return {
    connectorId: gun.connectorId,
    status,
    ocppStatus: run?.latest.s ?? null,
    errorCode: run?.latest.e ?? null,
    info: run?.latest.i ?? null,
    since,
    transactionId: session?.transactionId ?? null,
    idTag: session?.fields['idTag'] ?? null,
    sessionStartedAt: session?.fields['startedAt'] ?? null,
    powerW: session ? (open ? num(session.fields['powerW']) : 0) : null,
    energyWh: session ? sessionEnergy(session.fields) : null,
    soc: session ? num(session.fields['soc']) : null,
    sampledAt: session ? sampledAt(session.fields) : null,
  };
}

export function pileState(stored: StoredPile): PileState {
  const connection = connectionState(stored.connections);
  const whole = stored.guns.find((g) => g.connectorId === 0);
  const wholeStatus = whole ? statusRun(whole.statuses) : undefined;
  const context = { online: connection.online, since: connection.since, status: wholeStatus };
  const text = (field: string) => stored.info[field] || null;
  return {
    chargePointId: stored.chargePointId,
    online: connection.online,
    onlineSince: connection.since,
    lastSeenAt: text('lastSeenAt'),
    vendor: text('vendor'),
    model: text('model'),
    firmwareVersion: text('firmwareVersion'),
    ocppStatus: wholeStatus?.latest.s ?? null,
    guns: stored.guns.filter((g) => g.connectorId > 0).map((g) => gunState(g, context)),
  };
}

/** How long after a normal stop a vehicle still counts as "charging complete". */
export const COMPLETE_FOR_MS = 12 * 3_600_000;

export type VehicleChargeState = {
  chargeStatus: VehicleChargeStatus;
  soc: number | null;
  socAt: string | null;
  lowSoc: boolean;
  session: StoredCardSession | null;
  powerW: number | null;
  energyWh: number | null;
};

/** The vehicle's operational status (business-areas §4) from its asset record: in service or not. */
export type VehicleOperation = { operational: boolean };

/**
 * A vehicle's charging status (business-areas §4) from its cards' latest session and its operational
 * status: charging at a pile while in service is a driving charge (opportunity charging between runs),
 * out of service a parking charge (depot charging); a normal stop within the last 12 hours is "charging
 * complete"; anything else is uncharged.
 */
export function vehicleChargeState(
  sessions: StoredCardSession[],
  { operational }: VehicleOperation,
  now: Date,
): VehicleChargeState {
  const latest = sessions.sort((a, b) => b.rankedAt - a.rankedAt)[0];
  if (!latest)
    return {
      chargeStatus: 'uncharged',
      soc: null,
      socAt: null,
      lowSoc: false,
      session: null,
      powerW: null,
      energyWh: null,
    };
  const f = latest.transaction.fields;
  const stoppedAt = f['stoppedAt'];
  const superseded =
    latest.gunLatestTransactionId !== null &&
    latest.gunLatestTransactionId !== latest.transaction.transactionId;
  const charging = !stoppedAt && !superseded;
  let chargeStatus: VehicleChargeStatus = 'uncharged';
  if (charging) chargeStatus = operational ? 'drivingCharge' : 'parkingCharge';
  else if (
    stoppedAt &&
    f['stopKind'] === 'normal' &&
    now.getTime() - Date.parse(stoppedAt) <= COMPLETE_FOR_MS
  )
    chargeStatus = 'complete';
  const soc = num(f['soc']);
  return {
    chargeStatus,
    soc,
    socAt: f['soc@'] ?? null,
    lowSoc: soc !== null && soc < LOW_SOC_PERCENT,
    session: latest,
    powerW: charging ? num(f['powerW']) : stoppedAt ? 0 : null,
    energyWh: sessionEnergy(f),
  };
}

export type { StoredTransaction };
