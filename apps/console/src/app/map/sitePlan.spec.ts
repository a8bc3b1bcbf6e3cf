import { sitePlanBounds } from './sitePlan';

describe("a station's site plan on the map", () => {
  it('covers the station area with the image proportions, centred on the station', () => {
    const [[s, w], [n, e]] = sitePlanBounds([31.82, 117.23], 24_000, { width: 480, height: 320 })!;
    const heightM = (n - s) * 111_320;
    const widthM = (e - w) * 111_320 * Math.cos((31.82 * Math.PI) / 180);
    expect(widthM * heightM).toBeCloseTo(24_000, -1);
    expect(widthM / heightM).toBeCloseTo(1.5, 5);
    expect((s + n) / 2).toBeCloseTo(31.82, 9);
    expect((w + e) / 2).toBeCloseTo(117.23, 9);
  });

  it.each([
    ['no area', null, { width: 480, height: 320 }],
    ['a zero area', 0, { width: 480, height: 320 }],
    ['an image without size', 24_000, { width: 0, height: 320 }],
  ] as const)('is not placed with %s', (_, area, image) => {
    expect(sitePlanBounds([31.82, 117.23], area, image)).toBeUndefined();
  });
});
