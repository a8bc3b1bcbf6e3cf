/**
 * Charge point identities we accept in `/ocpp/{chargePointId}`: OCPP 1.6 chargeBoxIdentity is at most
 * 48 characters; we also restrict the alphabet so ids are safe in URLs, Redis keys and log lines.
 */
export const CHARGE_POINT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,47}$/;

export function isValidChargePointId(id: string): boolean {
  return CHARGE_POINT_ID_PATTERN.test(id);
}
