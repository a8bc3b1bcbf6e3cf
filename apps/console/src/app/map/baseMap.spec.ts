import { AMAP_TILE_URL, baseMapOf, isTileUrl } from './baseMap';
import { provincesInView, type Boundaries } from './chinaBoundaries';
import { gcj02ToWgs84, wgs84ToGcj02 } from './gcj02';

const OSM = 'https://tile.example.org/{z}/{x}/{y}.png';

describe('the base map of the console maps', () => {
  it.each([
    ['nothing configured: the offline map', {}, undefined, { kind: 'offline' }],
    ['an XYZ tile URL', { mapTileUrl: OSM }, undefined, { kind: 'tiles', url: OSM, datum: 'wgs84' }],
    ['the build-time tile URL', {}, OSM, { kind: 'tiles', url: OSM }],
    [
      'an AMap key: AMap tiles in GCJ-02',
      { 'thirdParty.amapKey': '0123456789abcdef' },
      undefined,
      { kind: 'tiles', url: AMAP_TILE_URL, subdomains: '1234', datum: 'gcj02' },
    ],
    [
      'both: the XYZ URL wins',
      { 'thirdParty.amapKey': '0123456789abcdef', mapTileUrl: OSM },
      undefined,
      { kind: 'tiles', url: OSM, datum: 'wgs84' },
    ],
    ['a blank key and URL', { 'thirdParty.amapKey': '  ', mapTileUrl: ' ' }, undefined, { kind: 'offline' }],
    [
      'a malformed URL: the offline map, not a blank one',
      { mapTileUrl: 'javascript:alert(1)/{z}/{x}/{y}' },
      undefined,
      { kind: 'offline' },
    ],
  ] as const)('%s', (_, entries, env, expected) => {
    expect(baseMapOf(entries, env)).toMatchObject(expected);
  });

  it.each([
    [OSM, true],
    ['http://10.0.0.5/tiles/{z}/{x}/{y}', true],
    ['https://tile.example.org/{z}/{x}.png', false],
    ['ftp://tile.example.org/{z}/{x}/{y}', false],
    ['https://tile.example.org/{z}/{x}/{y} x', false],
  ])('an XYZ template: %s -> %s', (url, ok) => {
    expect(isTileUrl(url)).toBe(ok);
  });

  it('shifts WGS-84 to GCJ-02 by a few hundred metres in China, not elsewhere, and back', () => {
    const hefei: [number, number] = [31.82, 117.23];
    const [lat, lng] = wgs84ToGcj02(hefei);
    expect(Math.abs(lat - hefei[0]) * 111_000).toBeGreaterThan(100);
    expect(Math.abs(lng - hefei[1]) * 94_000).toBeGreaterThan(300);
    const back = gcj02ToWgs84([lat, lng]);
    expect(back[0]).toBeCloseTo(hefei[0], 6);
    expect(back[1]).toBeCloseTo(hefei[1], 6);
    expect(wgs84ToGcj02([48.85, 2.35])).toEqual([48.85, 2.35]);
  });

  it('loads the cities of the provinces in view only', () => {
    const square = (name: string, w: number, s: number) => ({
      type: 'Feature' as const,
      properties: { name },
      geometry: {
        type: 'Polygon' as const,
        coordinates: [
          [
            [w, s],
            [w + 1, s],
            [w + 1, s + 1],
            [w, s],
          ],
        ],
      },
    });
    const provinces: Boundaries = {
      type: 'FeatureCollection',
      features: [square('安徽', 116, 31), square('福建', 119, 25)],
    };
    expect(provincesInView(provinces, [31.5, 116.5, 32, 117.5])).toEqual(['安徽']);
    expect(provincesInView(provinces, [20, 100, 40, 130])).toEqual(['安徽', '福建']);
    expect(provincesInView(provinces, [40, 100, 45, 110])).toEqual([]);
  });
});
