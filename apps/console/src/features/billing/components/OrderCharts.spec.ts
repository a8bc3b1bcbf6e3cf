// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../../test/browserTimeZone';
import { lineOption } from './OrderCharts';

withBrowserTimeZone('UTC');

describe('order charts', () => {
  it('label the time axis and the tooltip in business time, not the browser zone', () => {
    const at = Date.parse('2026-03-01T16:30:00Z'); // 00:30 on 2 March in Shanghai
    const option = lineOption('Power', 'kW', '#000', [
      [at, 1],
      [at + 3_600_000, 2],
    ]);
    expect(option.xAxis.axisLabel.formatter(at)).toBe('00:30');
    expect(option.xAxis.axisPointer.label.formatter({ value: at })).toBe('2026-03-02 00:30:00');
  });
});
