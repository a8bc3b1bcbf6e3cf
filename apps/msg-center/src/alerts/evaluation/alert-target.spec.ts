import { displayTarget, parseAlertTarget, targetProblem } from './alert-target';

describe('alert targets', () => {
  it.each([
    [
      'HTTP',
      'http://10.0.0.1:8080/health',
      { kind: 'http', url: 'http://10.0.0.1:8080/health', metric: 'up' },
    ],
    ['HTTP', 'https://a.example/x#latency', { kind: 'http', url: 'https://a.example/x', metric: 'latency' }],
    ['CONNECTION', 'db.local:5432', { kind: 'tcp', host: 'db.local', port: 5432, metric: 'up' }],
    ['CONNECTION', 'tcp://[::1]:80#latency', { kind: 'tcp', host: '::1', port: 80, metric: 'latency' }],
    ['REDIS', '127.0.0.1:6379', { kind: 'redis', url: 'redis://127.0.0.1:6379', field: 'used_memory' }],
    [
      'REDIS',
      'redis://:pw@r:6380/2#connected_clients',
      { kind: 'redis', url: 'redis://:pw@r:6380/2', field: 'connected_clients' },
    ],
    ['KAFKA', 'billing', { kind: 'kafka', brokers: ['k1:9092'], group: 'billing' }],
    [
      'KAFKA',
      'kafka://a:1,b:2/billing/vd.ocpp.transactions',
      { kind: 'kafka', brokers: ['a:1', 'b:2'], group: 'billing', topic: 'vd.ocpp.transactions' },
    ],
    ['NODE', 'local#memory', { kind: 'local', metric: 'memory' }],
    ['NODE', '10.0.0.5:9100', { kind: 'scrape', url: 'http://10.0.0.5:9100/metrics', metric: 'cpu' }],
    [
      'NODE',
      'http://h:3200#process_resident_memory_bytes',
      {
        kind: 'scrape',
        url: 'http://h:3200/metrics',
        metric: { name: 'process_resident_memory_bytes', labels: {} },
      },
    ],
    [
      'JAVA',
      'http://j:8080/actuator/prometheus#jvm_memory_used_bytes{area="heap",id="G1 Eden"}',
      {
        kind: 'scrape',
        url: 'http://j:8080/actuator/prometheus',
        metric: { name: 'jvm_memory_used_bytes', labels: { area: 'heap', id: 'G1 Eden' } },
      },
    ],
    [
      'REDIS',
      'promql: redis_memory_used_bytes > 0',
      { kind: 'promql', query: 'redis_memory_used_bytes > 0' },
    ],
  ] as const)('%s %s', (jobType, target, expected) => {
    expect(parseAlertTarget(jobType, target, ['k1:9092'])).toEqual(expected);
  });

  it.each([
    ['HTTP', 'ftp://x/y', "'ftp://x/y' is not an http(s) URL"],
    ['HTTP', 'http://x/#ping', "unknown metric 'ping' (up or latency)"],
    ['CONNECTION', 'db.local', "'db.local' is not host:port"],
    ['CONNECTION', 'db:70000', 'invalid port 70000'],
    ['REDIS', 'r:6379#used memory', "'used memory' is not an INFO field"],
    ['KAFKA', 'billing', 'no Kafka brokers: write kafka://host:port/<group> or set KAFKA_BROKERS'],
    ['KAFKA', 'kafka://a:1/g/t/u', "'kafka://a:1/g/t/u' is not <consumer group>[/<topic>]"],
    ['NODE', 'local#disk', "unknown metric 'disk' (cpu, memory or load1)"],
    ['NODE', 'h:1#up{', "'up{' is not a metric name"],
    ['JAVA', 'promql:', 'the PromQL expression is empty'],
  ] as const)('refuses %s %s', (jobType, target, message) => {
    expect(targetProblem(jobType, target)).toMatch(
      new RegExp(`^${escape(message)}; a ${jobType} target is `),
    );
  });

  it('hides credentials when shown', () => {
    expect(displayTarget('redis://:secret@r:6379#used_memory')).toBe('redis://r:6379#used_memory');
    expect(displayTarget('http://h/health')).toBe('http://h/health');
    expect(displayTarget(':secret@r:6379#used_memory')).toBe('r:6379#used_memory');
    expect(displayTarget('default:secret@r:6379/2')).toBe('r:6379/2');
    expect(displayTarget('https://ops:pw@h/health#latency')).toBe('https://h/health#latency');
    expect(displayTarget('kafka://k:9092/group/topic')).toBe('kafka://k:9092/group/topic');
    expect(displayTarget('promql:up@1609746000 == 0')).toBe('promql:up@1609746000 == 0');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
