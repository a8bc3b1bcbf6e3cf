import type { CentralSystemAction, ChargePointAction, RegistrationStatus } from '@voltdepot/shared-ocpp';
import type { PileSession } from '../connection/pile-session';
import type { PileState } from '../connection/pile-registry.repository';

/** How long a Pending pile may take to send a message it was asked for with TriggerMessage (ms). */
export const TRIGGERED_MESSAGE_WINDOW_MS = 60_000;

/**
 * May the pile send this call now? OCPP 1.6 §4.2.1 (BootNotification): until the central system has
 * accepted it, a pile sends nothing but BootNotification; a Pending pile may in addition send what the
 * central system asked for with TriggerMessage. A pile that never booted (on any connection) is not
 * accepted either. Anything else is refused with a SecurityError.
 */
export function mayPileSend(session: PileSession, action: ChargePointAction, now = Date.now()): boolean {
  if (action === 'BootNotification' || session.registrationStatus === 'Accepted') return true;
  if (session.registrationStatus !== 'Pending') return false;
  const until = session.triggered?.get(action);
  if (until === undefined || until < now) return false;
  session.triggered!.delete(action);
  return true;
}

/**
 * May the central system send this command to the pile? Only to a pile that booted and was not
 * Rejected (§4.2.1: the central system does not initiate messages to a Rejected pile), and while a pile
 * is Pending, not RemoteStartTransaction nor RemoteStopTransaction. Returns why not, or undefined.
 */
export function commandRefusal(session: PileSession, action: CentralSystemAction): string | undefined {
  const status = session.registrationStatus;
  if (status === 'Accepted') return undefined;
  if (status === undefined) return `pile ${session.chargePointId} has not booted yet`;
  if (status === 'Rejected') return `pile ${session.chargePointId} was rejected at boot`;
  if (action === 'RemoteStartTransaction' || action === 'RemoteStopTransaction')
    return `pile ${session.chargePointId} is pending: ${action} is not allowed until it is accepted`;
  return undefined;
}

/**
 * The registration a new connection starts with: the answer to the pile's last boot, but never more
 * than the registry admits now. A pile disabled since it was accepted is Rejected, one moved back to
 * pending is Pending, until its next BootNotification re-reads the registry; otherwise a pile could
 * reconnect without booting and go on charging on an acceptance it no longer has.
 */
export function registrationOnConnect(
  lastBoot: RegistrationStatus | undefined,
  registryState: PileState,
): RegistrationStatus | undefined {
  if (registryState === 'disabled') return 'Rejected';
  if (registryState === 'pending' && lastBoot === 'Accepted') return 'Pending';
  return lastBoot;
}

/** Note that a Pending pile was asked for `requested` (a TriggerMessage it accepted). */
export function allowTriggeredMessage(session: PileSession, requested: string, now = Date.now()): void {
  if (session.registrationStatus !== 'Pending' || requested === 'BootNotification') return;
  session.triggered ??= new Map();
  session.triggered.set(requested as ChargePointAction, now + TRIGGERED_MESSAGE_WINDOW_MS);
}
