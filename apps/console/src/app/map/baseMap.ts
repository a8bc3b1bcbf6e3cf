/**
 * Which base map the console's maps draw under their markers: a configured tile source, else the
 * offline map (China's province and city boundaries shipped with the console), so a fresh install
 * without network or keys still shows stations in a real geographic context.
 */

/** Platform settings (public) that choose the base map. */
export const MAP_SETTING_KEYS = { tileUrl: 'mapTileUrl', amapKey: 'thirdParty.amapKey' } as const;

/**
 * AMap's raster road map (web tiles, Chinese labels). Its coordinates are GCJ-02, China's official
 * offset datum: markers given in WGS-84 are shifted to it (see gcj02.ts).
 */
export const AMAP_TILE_URL =
  'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}';

export type TileSource = {
  kind: 'tiles';
  url: string;
  subdomains?: string;
  attribution: string;
  /** The datum of the tiles: markers are drawn in it. */
  datum: 'wgs84' | 'gcj02';
};
export type BaseMap = TileSource | { kind: 'offline' };

/** An XYZ template: http(s), with {z}, {x} and {y}. */
export function isTileUrl(url: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(url)) return false;
  return ['{z}', '{x}', '{y}'].every((p) => url.includes(p));
}

/**
 * The base map of the settings: an XYZ source (`mapTileUrl`, else the build's VITE_MAP_TILE_URL) wins,
 * then AMap when its key (`thirdParty.amapKey`) is set, else the offline map. A malformed URL counts as
 * none: a blank map would tell the operator less than the offline one.
 */
export function baseMapOf(entries: Readonly<Record<string, string>>, envTileUrl?: string): BaseMap {
  const url = (entries[MAP_SETTING_KEYS.tileUrl] || envTileUrl || '').trim();
  if (url && isTileUrl(url)) return { kind: 'tiles', url, attribution: '&copy; map data', datum: 'wgs84' };
  if ((entries[MAP_SETTING_KEYS.amapKey] ?? '').trim())
    return {
      kind: 'tiles',
      url: AMAP_TILE_URL,
      subdomains: '1234',
      attribution: '&copy; AutoNavi (高德地图)',
      datum: 'gcj02',
    };
  return { kind: 'offline' };
}
