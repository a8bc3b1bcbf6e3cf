import type { StopReason } from './enums';

/** How a transaction ended as the operator sees it: normal stops are asked for by a person or the vehicle. */
export type StopKind = 'normal' | 'abnormal';

/**
 * Classification of OCPP 1.6 stop reasons (decision recorded here, used by settlement and alerts):
 * - normal: Local (card or button at the pile), Remote (back office / app), EVDisconnected (the bus
 *   unplugged or finished), DeAuthorized (the central system refused the tag; the session ended as
 *   designed, not through a fault).
 * - abnormal: EmergencyStop, PowerLoss, HardReset, SoftReset, Reboot, UnlockCommand (forced unlock
 *   while charging), Other (the pile could not say why, so an operator should look).
 * A missing reason means Local (OCPP 1.6 §6.47: "Local" is the default).
 */
export const STOP_KIND_BY_REASON: Record<StopReason, StopKind> = {
  Local: 'normal',
  Remote: 'normal',
  EVDisconnected: 'normal',
  DeAuthorized: 'normal',
  EmergencyStop: 'abnormal',
  PowerLoss: 'abnormal',
  HardReset: 'abnormal',
  SoftReset: 'abnormal',
  Reboot: 'abnormal',
  UnlockCommand: 'abnormal',
  Other: 'abnormal',
};

export function stopKindOf(reason: StopReason | undefined): { reason: StopReason; stopKind: StopKind } {
  const effective = reason ?? 'Local';
  return { reason: effective, stopKind: STOP_KIND_BY_REASON[effective] ?? 'abnormal' };
}
