import { ValidationException } from '@voltdepot/server-core';
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
  return { rows, service: new AlertsService(alerts, templates, groups, { ...CONFIG, ...config }) };
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
