import type { AlertRow } from './alert.repository';
import { alertTargetGroup } from './prometheus-targets';

const alert = (jobType: string, target: string): AlertRow => ({
  id: 1,
  name: 'a',
  alertGroup: 'PLATFORM',
  jobType,
  target,
  expression: 'GE',
  threshold: 1,
  templateId: null,
  groupId: null,
  channels: [],
  level: 'PROMPT',
  frequency: null,
  status: 'UP',
  enabled: true,
  lastValue: null,
  lastCheckedAt: null,
  username: null,
  createTime: new Date(0),
  updateTime: new Date(0),
});

describe('alertTargetGroup', () => {
  it.each([
    ['HTTP', 'https://ops:pw@h.example:8443/health', 'https://h.example:8443/health'],
    ['REDIS', ':secret@r:6380', 'r:6380'],
    ['JAVA', 'http://u:p@j:8080/actuator/prometheus#jvm_threads_live_threads', 'j:8080'],
  ])('lists a %s target without its credentials', (jobType, target, listed) => {
    const group = alertTargetGroup(alert(jobType, target), []);
    expect(group?.targets).toEqual([listed]);
    expect(JSON.stringify(group)).not.toMatch(/pw|secret|u:p/);
  });
});
