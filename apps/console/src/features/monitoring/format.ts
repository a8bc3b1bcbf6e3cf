/** Power in kW with one decimal ("120.5 kW"); '-' when unknown. */
export function formatPower(w: number | null | undefined): string {
  return w === null || w === undefined ? '-' : `${(w / 1000).toFixed(1)} kW`;
}

/** Energy in kWh with two decimals ("12.35 kWh"); '-' when unknown. */
export function formatEnergy(wh: number | null | undefined): string {
  return wh === null || wh === undefined ? '-' : `${(wh / 1000).toFixed(2)} kWh`;
}

export function formatSoc(soc: number | null | undefined): string {
  return soc === null || soc === undefined ? '-' : `${Math.round(soc * 10) / 10}%`;
}

/** How long since `iso` ("3h 05m", "42m", "15s"); '' for no instant. */
export function formatDuration(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return '';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m`;
  return `${seconds % 60}s`;
}
