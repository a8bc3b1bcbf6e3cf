const formatters = new Map<string, Intl.DateTimeFormat>();
const lastFormatted = new Map<string, { second: number; text: string }>();

/** `yyyy-MM-dd HH:mm:ss` of an instant in a time zone (default Asia/Shanghai). */
export function formatBusinessTime(instant: Date | string, timeZone = 'Asia/Shanghai'): string {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  // Fan-outs format the same second thousands of times (an inbox row per receiver): keep the last one.
  const second = Math.floor(date.getTime() / 1000);
  const last = lastFormatted.get(timeZone);
  if (last !== undefined && last.second === second) return last.text;
  const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  const text = `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']}:${parts['second']}`;
  lastFormatted.set(timeZone, { second, text });
  return text;
}

/** The instant of a `yyyy-MM-dd HH:mm:ss` (or `yyyy-MM-dd`) wall-clock time in a time zone; undefined if malformed. */
export function parseBusinessTime(text: string, timeZone = 'Asia/Shanghai'): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  const asUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  if (Number.isNaN(asUtc)) return undefined;
  // Offset of the zone at that moment: format the UTC guess in the zone and compare.
  const guess = new Date(asUtc);
  const shown = formatBusinessTime(guess, timeZone);
  const shownUtc = Date.parse(`${shown.replace(' ', 'T')}Z`);
  return new Date(asUtc - (shownUtc - asUtc));
}
