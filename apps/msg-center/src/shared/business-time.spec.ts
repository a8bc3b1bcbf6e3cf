import { formatBusinessTime, parseBusinessTime } from './business-time';

describe('business time', () => {
  it('formats an instant as yyyy-MM-dd HH:mm:ss in Asia/Shanghai', () => {
    expect(formatBusinessTime('2025-01-31T16:05:09.500Z')).toBe('2025-02-01 00:05:09');
  });

  it('answers repeated formats of one second from its cache, per zone and per second', () => {
    expect(formatBusinessTime('2025-01-31T16:05:09.100Z')).toBe('2025-02-01 00:05:09');
    expect(formatBusinessTime('2025-01-31T16:05:09.900Z')).toBe('2025-02-01 00:05:09');
    expect(formatBusinessTime('2025-01-31T16:05:09.900Z', 'UTC')).toBe('2025-01-31 16:05:09');
    expect(formatBusinessTime('2025-01-31T16:05:10.000Z')).toBe('2025-02-01 00:05:10');
    expect(formatBusinessTime(new Date('2025-01-31T16:05:09.000Z'))).toBe('2025-02-01 00:05:09');
  });

  it('parses wall-clock time in the zone', () => {
    expect(parseBusinessTime('2025-02-01 00:05:09')?.toISOString()).toBe('2025-01-31T16:05:09.000Z');
    expect(parseBusinessTime('2025-02-01')?.toISOString()).toBe('2025-01-31T16:00:00.000Z');
    expect(parseBusinessTime('yesterday')).toBeUndefined();
  });
});
