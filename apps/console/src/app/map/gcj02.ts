/**
 * WGS-84 (what stations store, what GPS gives) to GCJ-02 (the offset datum Chinese map tiles such as
 * AMap use) and back. The published approximation (about 1 m); outside China both datums coincide.
 */
const A = 6378245.0;
const EE = 0.006693421622965943;

export type LatLng = [latitude: number, longitude: number];

function outsideChina([lat, lng]: LatLng): boolean {
  return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271;
}

function transformLat(x: number, y: number): number {
  let r = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  r += ((20 * Math.sin(y * Math.PI) + 40 * Math.sin((y / 3) * Math.PI)) * 2) / 3;
  r += ((160 * Math.sin((y / 12) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30)) * 2) / 3;
  return r;
}

function transformLng(x: number, y: number): number {
  let r = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  r += ((20 * Math.sin(x * Math.PI) + 40 * Math.sin((x / 3) * Math.PI)) * 2) / 3;
  r += ((150 * Math.sin((x / 12) * Math.PI) + 300 * Math.sin((x / 30) * Math.PI)) * 2) / 3;
  return r;
}

export function wgs84ToGcj02(point: LatLng): LatLng {
  if (outsideChina(point)) return point;
  const [lat, lng] = point;
  const radLat = (lat / 180) * Math.PI;
  const magic = 1 - EE * Math.sin(radLat) ** 2;
  const sqrtMagic = Math.sqrt(magic);
  const dLat = (transformLat(lng - 105, lat - 35) * 180) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  const dLng = (transformLng(lng - 105, lat - 35) * 180) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  return [lat + dLat, lng + dLng];
}

/** The inverse, by fixed-point iteration (a few steps reach well below a metre). */
export function gcj02ToWgs84(point: LatLng): LatLng {
  if (outsideChina(point)) return point;
  let guess: LatLng = point;
  for (let i = 0; i < 5; i++) {
    const [lat, lng] = wgs84ToGcj02(guess);
    guess = [guess[0] - (lat - point[0]), guess[1] - (lng - point[1])];
  }
  return guess;
}
