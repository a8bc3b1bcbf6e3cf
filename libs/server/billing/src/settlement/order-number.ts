import { zoneOffsetMs } from '../pricing/business-time';

/** FNV-1a of the charge point id, 8 hex digits. */
function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0').toUpperCase();
}

/**
 * Order numbers are derived from the business key, so a replayed settlement computes the same number:
 * `CO` + local stop date (yyyyMMdd) + pile hash + transaction id (10 digits) = 28 characters.
 */
export function orderNumber(
  chargePointId: string,
  transactionId: number,
  stoppedAt: Date,
  timeZone: string,
): string {
  const local = new Date(stoppedAt.getTime() + zoneOffsetMs(stoppedAt.getTime(), timeZone));
  const date = local.toISOString().slice(0, 10).replace(/-/g, '');
  return `CO${date}${hash8(chargePointId)}${String(transactionId).padStart(10, '0')}`;
}
