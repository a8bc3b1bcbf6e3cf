import type { GunStatus } from '@voltdepot/shared-contracts';

/**
 * The spec's gun status (business-areas §4) for an OCPP 1.6 ChargePointStatus. Suspended sessions are
 * still charging sessions (the vehicle or the pile paused the current); Unavailable (taken out of
 * service, e.g. by ChangeAvailability) has no state of its own in the spec and shows as offline.
 */
export function gunStatusOf(ocppStatus: string): GunStatus {
  switch (ocppStatus) {
    case 'Available':
      return 'idle';
    case 'Reserved':
      return 'reservation';
    case 'Preparing':
      return 'connected';
    case 'Charging':
    case 'SuspendedEV':
    case 'SuspendedEVSE':
      return 'charging';
    case 'Finishing':
      return 'stopCharging';
    case 'Faulted':
      return 'fault';
    case 'Unavailable':
      return 'offline';
    default:
      // Not an OCPP 1.6 status: nothing trustworthy is known about the gun.
      return 'offline';
  }
}

/** Statuses in which the gun's session figures (power, energy, SoC) are worth showing. */
export function showsSession(status: GunStatus): boolean {
  return status === 'connected' || status === 'charging' || status === 'stopCharging';
}
