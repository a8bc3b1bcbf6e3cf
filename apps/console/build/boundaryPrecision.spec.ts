import { roundDecimals } from './boundaryPrecision';

describe('the boundary files in the build', () => {
  it('keeps 4 decimals of every coordinate and leaves other text alone', () => {
    expect(roundDecimals('[[104.35851932200904, 37.40123159456249], [116.3123, 31.8]] id "3415"')).toBe(
      '[[104.3585, 37.4012], [116.3123, 31.8]] id "3415"',
    );
  });
});
