import { assignPartitions, compareStreamIds, nextStreamId, partitionOf } from './partition';

describe('redis partitioning', () => {
  it('maps a key to the same partition every time, within range', () => {
    for (const key of ['CP-001', 'CP-002', 'depot-A/17', '']) {
      const p = partitionOf(key, 8);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(8);
      expect(partitionOf(key, 8)).toBe(p);
    }
  });

  it('spreads many keys over all partitions', () => {
    const used = new Set(Array.from({ length: 200 }, (_, i) => partitionOf(`CP-${i}`, 8)));
    expect(used.size).toBe(8);
  });

  it('deals every slot to exactly one live member', () => {
    const slots = Array.from({ length: 10 }, (_, i) => i);
    const members = ['c', 'a', 'b'];
    const plans = members.map((m) => assignPartitions(slots, members, m));
    expect(plans.flat().sort((x, y) => x - y)).toEqual(slots);
    expect(plans.map((p) => p.length).sort()).toEqual([3, 3, 4]);
    expect(assignPartitions(slots, members, 'z')).toEqual([]);
  });

  it('orders and increments stream ids numerically', () => {
    expect(compareStreamIds('9-0', '10-0')).toBe(-1);
    expect(compareStreamIds('10-2', '10-10')).toBe(-1);
    expect(compareStreamIds('10-2', '10-2')).toBe(0);
    expect(nextStreamId('1700000000000-9')).toBe('1700000000000-10');
  });
});
