import dayjs, { type Dayjs } from 'dayjs';

/** How far back a picked instant may lie and still mean "now" (the form was open a while). */
const PAST_GRACE_MS = 60_000;

const parse = (value: Dayjs | string | null | undefined): Dayjs | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const parsed = dayjs.isDayjs(value) ? value : dayjs(value);
  return parsed.isValid() ? parsed : undefined;
};

/** A picked "effective from" lies in the past (more than a minute ago): the api would refuse it. */
export function isPastInstant(value: Dayjs | string | null | undefined, now: Dayjs = dayjs()): boolean {
  const at = parse(value);
  return at !== undefined && at.valueOf() < now.valueOf() - PAST_GRACE_MS;
}

/**
 * The `effectiveFrom` to send: an instant with the browser's offset when a later time was picked;
 * undefined (the api takes now) when nothing or a time up to now was picked.
 */
export function effectiveFromParam(
  value: Dayjs | string | null | undefined,
  now: Dayjs = dayjs(),
): string | undefined {
  const at = parse(value);
  return at && at.isAfter(now) ? at.format('YYYY-MM-DDTHH:mm:ssZ') : undefined;
}
