/** Fen as yuan with two decimals ("12.34"); money is integer fen everywhere (spec §9: cents / 100). */
export function formatYuan(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return '-';
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Wh as kWh with three decimals ("80.000"). */
export function formatKwh(wh: number | null | undefined): string {
  if (wh === null || wh === undefined || !Number.isFinite(wh)) return '-';
  const sign = wh < 0 ? '-' : '';
  const abs = Math.abs(Math.round(wh));
  return `${sign}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, '0')}`;
}

/** Seconds as H:mm:ss. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || seconds < 0) return '-';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
