// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatDuration, formatKwh, formatYuan } from './money';

describe('money and energy as shown', () => {
  it('shows fen as yuan with two decimals, integers only', () => {
    expect(formatYuan(123_456)).toBe('1234.56');
    expect(formatYuan(5)).toBe('0.05');
    expect(formatYuan(0)).toBe('0.00');
    expect(formatYuan(-250)).toBe('-2.50');
    expect(formatYuan(null)).toBe('-');
  });

  it('shows Wh as kWh with three decimals', () => {
    expect(formatKwh(80_000)).toBe('80.000');
    expect(formatKwh(5)).toBe('0.005');
    expect(formatKwh(-1_500)).toBe('-1.500');
    expect(formatKwh(Number.NaN)).toBe('-');
  });

  it('shows seconds as H:mm:ss', () => {
    expect(formatDuration(3_725)).toBe('1:02:05');
    expect(formatDuration(-1)).toBe('-');
  });
});
