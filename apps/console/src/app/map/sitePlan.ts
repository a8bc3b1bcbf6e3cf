/** Metres per degree of latitude (and of longitude at the equator). */
const METRES_PER_DEGREE = 111_320;

/**
 * Where a station's site plan lies on the map: centred on the station, as wide and high as a rectangle
 * of the station's area with the image's proportions (the plan is drawn north up). Undefined without an
 * area or a drawable image.
 */
export function sitePlanBounds(
  center: [number, number],
  areaSqm: number | null | undefined,
  image: { width: number; height: number },
): [[number, number], [number, number]] | undefined {
  if (!areaSqm || areaSqm <= 0 || image.width <= 0 || image.height <= 0) return undefined;
  const aspect = image.width / image.height;
  const widthM = Math.sqrt(areaSqm * aspect);
  const heightM = areaSqm / widthM;
  const [lat, lng] = center;
  const dLat = heightM / 2 / METRES_PER_DEGREE;
  const dLng = widthM / 2 / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
  return [
    [lat - dLat, lng - dLng],
    [lat + dLat, lng + dLng],
  ];
}
