import { matching, nodeCpuSeconds, parsePrometheusText, sumOf, sumOfAnyPrefix } from './prometheus-text';

describe('Prometheus text exposition', () => {
  const text = [
    '# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.',
    '# TYPE node_cpu_seconds_total counter',
    'node_cpu_seconds_total{cpu="0",mode="idle"} 80',
    'node_cpu_seconds_total{cpu="0",mode="user"} 15',
    'node_cpu_seconds_total{cpu="0",mode="iowait"} 5',
    'jvm_memory_used_bytes{area="heap",id="a \\"x\\""} 1.5e3 1700000000000',
    'jvm_memory_used_bytes{area="nonheap",id="b"} 500',
    'up 1',
  ].join('\n');

  it('parses samples with labels, escapes, exponents and timestamps', () => {
    const samples = parsePrometheusText(text);
    expect(samples).toHaveLength(6);
    expect(matching(samples, { name: 'jvm_memory_used_bytes', labels: { area: 'heap' } })).toEqual([
      { name: 'jvm_memory_used_bytes', labels: { area: 'heap', id: 'a "x"' }, value: 1500 },
    ]);
    expect(sumOf(samples, { name: 'jvm_memory_used_bytes', labels: {} })).toBe(2000);
    expect(sumOf(samples, { name: 'nope', labels: {} })).toBeUndefined();
    expect(nodeCpuSeconds(samples)).toEqual({ busy: 15, total: 100 });
  });

  it('finds a metric under a namespace prefix (voltdepot_process_cpu_seconds_total)', () => {
    const samples = parsePrometheusText('voltdepot_process_cpu_seconds_total 1.5\nother_cpu 9');
    expect(sumOfAnyPrefix(samples, 'process_cpu_seconds_total')).toBe(1.5);
    expect(sumOfAnyPrefix(samples, 'process_cpu_usage')).toBeUndefined();
  });
});
