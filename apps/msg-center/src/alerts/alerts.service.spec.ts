import { OutboundAllowList, OutboundGuard, ValidationException } from '@voltdepot/server-core';
import { MsgErrorCodes } from '@voltdepot/shared-contracts';
import { ruleReferences } from '../fixtures/rule-references';
import type { AlertBody } from './alert.dto';
import type { AlertRow } from './alert.repository';
import { AlertsService } from './alerts.service';

const { templates, groups } = ruleReferences;
const CONFIG: {
  BUSINESS_TIME_ZONE: string;
  DATABASE_URL: string;
  REDIS_URL: string;
  KAFKA_BROKERS?: string[];
  MSG_PROMETHEUS_URL?: string;
  MSG_ALERT_TIMEOUT_MS: number;
} = {
  BUSINESS_TIME_ZONE: 'Asia/Shanghai',
  DATABASE_URL: 'postgres://u:p@db:5432/voltdepot',
  REDIS_URL: 'redis://redis:6379',
  KAFKA_BROKERS: undefined,
  MSG_PROMETHEUS_URL: undefined,
  MSG_ALERT_TIMEOUT_MS: 1000,
};

function setup(config: Partial<typeof CONFIG> = {}) {
  const rows = new Map<number, AlertBody>();
  const alerts = {
    page: async () => ({ list: [], total: 0 }),
    find: async (id: number) => (rows.has(id) ? ({ id, ...rows.get(id) } as unknown as AlertRow) : undefined),
    enabled: async () => [],
    insert: async (body: AlertBody) => {
      rows.set(rows.size + 1, body);
      return rows.size;
    },
    update: async (id: number, body: AlertBody) => void rows.set(id, body),
    delete: async (id: number) => void rows.delete(id),
  };
  // Names resolve to a public address, except the one an attacker points at the metadata service.
  const outbound = new OutboundGuard(new OutboundAllowList(['redis']), async (host) => [
    { address: host === 'rebound.example.com' ? '169.254.169.254' : '93.184.216.34', family: 4 },
  ]);
  return {
    rows,
    service: new AlertsService(alerts, templates, groups, { ...CONFIG, ...config }, outbound),
  };
}

const anAlert = (o: Partial<AlertBody> = {}): AlertBody => ({
  name: 'Console down',
  alertGroup: 'HTTP',
  jobType: 'HTTP',
  target: 'https://console.example.com/health#up',
  expression: 'LE',
  threshold: 0,
  status: 'DEFAULT',
  templateId: 1,
  groupId: 1,
  channels: [4],
  level: 'EMERGENCY',
  enabled: true,
  ...o,
});

describe('AlertsService', () => {
  it('stores an alert whose target fits its job type and whose template and group exist', async () => {
    const { service, rows } = setup();
    await expect(service.create(anAlert(), 'admin')).resolves.toEqual({ id: 1 });
    expect(rows.size).toBe(1);
  });

  it.each<[string, Partial<AlertBody>, Parameters<typeof setup>[0], RegExp]>([
    ['a target not of its job type', { target: 'redis:6379' }, {}, /a HTTP target is http\(s\):\/\//],
    [
      'a promql target without a Prometheus',
      { target: 'promql:up == 0' },
      {},
      /MSG_PROMETHEUS_URL is not configured/,
    ],
    [
      'an HTTP check of the cloud metadata service',
      { target: 'http://169.254.169.254/latest/meta-data/' },
      {},
      /^169\.254\.169\.254 is a link-local, metadata or reserved address, where outbound requests never go$/,
    ],
    [
      'a name resolving to the metadata service',
      { target: 'http://rebound.example.com/' },
      {},
      /^rebound\.example\.com resolves to 169\.254\.169\.254, a link-local/,
    ],
    [
      'a Redis on a private address nobody allowed',
      { jobType: 'REDIS', target: 'redis://10.0.0.5:6379' },
      {},
      /^10\.0\.0\.5 is an internal address: an administrator must allow 10\.0\.0\.5 \(OUTBOUND_ALLOWED_HOSTS\)$/,
    ],
    [
      'a Kafka broker on loopback',
      { jobType: 'KAFKA', target: 'kafka://127.0.0.1:9092/billing' },
      {},
      /^127\.0\.0\.1 is an internal address/,
    ],
    [
      'a TCP check of a metadata name',
      { jobType: 'CONNECTION', target: 'metadata.google.internal:80' },
      {},
      /^metadata\.google\.internal is a cloud metadata service/,
    ],
  ])('refuses %s (400 on target)', async (_case, body, config, message) => {
    const { service, rows } = setup(config);
    const refused = service.create(anAlert(body), 'admin');
    await expect(refused).rejects.toBeInstanceOf(ValidationException);
    await expect(refused).rejects.toMatchObject({
      fields: [{ field: 'target', message: expect.stringMatching(message) }],
    });
    expect(rows.size).toBe(0);
  });

  it('takes a promql target when a Prometheus is configured', async () => {
    const { service } = setup({ MSG_PROMETHEUS_URL: 'http://prometheus:9090' });
    await expect(service.create(anAlert({ target: 'promql:up == 0' }), 'admin')).resolves.toEqual({ id: 1 });
  });

  it.each([
    ['a template', { templateId: 7 }, MsgErrorCodes.TemplateNotFound],
    ['a group', { groupId: 7 }, MsgErrorCodes.GroupNotFound],
  ])('refuses %s that does not exist (404)', async (_case, body, code) => {
    const { service } = setup();
    await expect(service.create(anAlert(body), 'admin')).rejects.toMatchObject({ code, httpStatus: 404 });
  });
});
