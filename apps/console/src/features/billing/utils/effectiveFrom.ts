import type { Dayjs } from 'dayjs';
import { instantOfPicked, pickedInstantParam } from '../../../app/format/businessPicker';

/** How far back a picked instant may lie and still mean "now" (the form was open a while). */
const PAST_GRACE_MS = 60_000;

/**
 * A picked "effective from" (business wall-clock time) lies in the past (more than a minute ago): the
 * api would refuse it.
 */
export function isPastInstant(value: Dayjs | string | null | undefined, now: number = Date.now()): boolean {
  const at = instantOfPicked(value);
  return at !== undefined && at < now - PAST_GRACE_MS;
}

/**
 * The `effectiveFrom` to send: the picked business time as an instant with the business offset when
 * it is later than now; undefined (the api takes now) when nothing or a time up to now was picked.
 */
export function effectiveFromParam(
  value: Dayjs | string | null | undefined,
  now: number = Date.now(),
): string | undefined {
  const at = instantOfPicked(value);
  return at !== undefined && at > now ? pickedInstantParam(value) : undefined;
}
