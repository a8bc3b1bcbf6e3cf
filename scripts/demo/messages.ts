/**
 * The message centre's demo rows (apps/msg-center; what an administrator sets up in the console, see the
 * e2e scenario scripts/e2e/scenarios/messages.ts): an in-site message config and a local SMTP
 * placeholder, templates for abnormal stops, pile faults, low balances and service alerts, receiver groups
 * of the demo's operators and maintenance staff (by role, so they reach whoever has the role), event rules
 * routing abnormal stops and pile faults to them as in-site messages, and health checks of the demo's own
 * services. Seeded here, like the rest of the demo, rather than by msg-center at start-up: one place
 * makes the demo and the seed test checks it against a fresh database.
 *
 * Nothing is sent to another host: the rules use in-site messages only, the email config points at a
 * local SMTP port no rule uses, and the alerts watch 127.0.0.1. The send log and the inbox fill for real
 * as the simulated piles stop abnormally or fault. Idempotent by name; existing rows are kept as they are.
 */
import type { EntityManager } from 'typeorm';
import { ensure } from './seed-row';

/** Event channel numbers (shared-contracts' EventChannels): in-site message. */
const IN_SITE = 4;

export const DEMO_MSG_CONFIGS = {
  inSite: '站内信通知',
  email: '告警邮件（本地 SMTP 示例）',
};

export const DEMO_MSG_TEMPLATES: [
  config: keyof typeof DEMO_MSG_CONFIGS,
  name: string,
  type: string,
  content: string,
][] = [
  [
    'inSite',
    '充电异常停止通知',
    '0',
    '<p>${time} 充电桩 ${pile} 的 ${gun} 号枪充电异常停止，原因：${reason}，已充电 ${energyKwh} kWh。请值班人员确认车辆状态。</p>',
  ],
  [
    'inSite',
    '充电桩故障通知',
    '0',
    '<p>${time} 充电桩 ${pile} 的 ${gun} 号枪故障：${errorCode} ${info}，请运维人员尽快到场处理。</p>',
  ],
  [
    'inSite',
    'IC 卡余额不足提醒',
    '0',
    '<p>${customer} 的 IC 卡 ${cardNo} 余额 ${balance} 元，已低于最低可充电余额，请及时充值。</p>',
  ],
  [
    'email',
    'IC 卡余额不足邮件',
    '2',
    '<p>尊敬的 ${customer}：</p><p>您的 IC 卡 ${cardNo} 当前余额 ${balance} 元，已低于最低可充电余额，充电桩将拒绝该卡充电。请到营业厅或联系车队管理员充值。</p><p>合肥伏特充电运营有限公司</p>',
  ],
  [
    'inSite',
    '服务告警通知',
    '0',
    '<p>${time} ${name}：${target} 当前值 ${value}（阈值 ${expression} ${threshold}），状态 ${status}。</p>',
  ],
];

/** Receiver groups by role code (demo logins: operator, maintainer; admin sees everything). */
export const DEMO_MSG_GROUPS: [name: string, roles: string[], description: string][] = [
  ['场站值班组', ['admin', 'operator'], '场站值班运营人员：接收充电异常停止与服务告警'],
  ['设备运维组', ['admin', 'maintainer'], '充电设备运维人员：接收充电桩故障'],
];

type Rule = {
  name: string;
  eventType: 'transaction.stopped' | 'pile.error' | 'pile.error-cleared';
  condition: Record<string, string>;
  template: string | null;
  group: string;
  level: string;
  frequency: string;
  enabled: boolean;
};

export const DEMO_MSG_RULES: Rule[] = [
  {
    name: '充电异常停止',
    eventType: 'transaction.stopped',
    condition: { stopKind: 'abnormal' },
    template: '充电异常停止通知',
    group: '场站值班组',
    level: 'IMPORTANT',
    frequency: 'FIVE_MINUTES',
    enabled: true,
  },
  {
    name: '充电桩故障',
    eventType: 'pile.error',
    condition: {},
    template: '充电桩故障通知',
    group: '设备运维组',
    level: 'EMERGENCY',
    frequency: 'THIRTY_MINUTES',
    enabled: true,
  },
  {
    name: '充电桩故障恢复',
    eventType: 'pile.error-cleared',
    condition: {},
    template: null,
    group: '设备运维组',
    level: 'PROMPT',
    frequency: 'HOURS',
    enabled: false,
  },
];

export async function seedDemoMessages(m: EntityManager): Promise<void> {
  const configIds = {
    inSite: (
      await ensure(m, 'msg_config', { config_name: DEMO_MSG_CONFIGS.inSite }, () => ({
        full_name: '充电告警',
        channel: 'WEBSOCKET',
        settings: {},
        status: 'UP',
        username: 'admin',
      }))
    ).id,
    // A placeholder: a mail catcher on this machine (e.g. MailHog on 1025); no rule sends by email.
    email: (
      await ensure(m, 'msg_config', { config_name: DEMO_MSG_CONFIGS.email }, () => ({
        full_name: 'IC 卡余额提醒',
        channel: 'EMAIL',
        settings: {
          host: '127.0.0.1',
          port: 1025,
          secure: false,
          ignoreTLS: true,
          from: 'Voltdepot 告警 <alerts@voltdepot.local>',
        },
        status: 'DOWN',
        username: 'admin',
      }))
    ).id,
  };
  const templateIds = new Map<string, number>();
  for (const [config, name, type, content] of DEMO_MSG_TEMPLATES) {
    const { id } = await ensure(
      m,
      'msg_template',
      { config_id: configIds[config], template_name: name },
      () => ({ content, type, parameters: {}, username: 'admin' }),
    );
    templateIds.set(name, id);
  }
  const groupIds = new Map<string, number>();
  for (const [name, roles, description] of DEMO_MSG_GROUPS) {
    const rows = (await m.query(`SELECT id FROM sys_role WHERE code = ANY($1) ORDER BY id`, [roles])) as {
      id: number;
    }[];
    const { id } = await ensure(m, 'msg_group', { name }, () => ({
      type: 'ROLE',
      member_ids: rows.map((r) => Number(r.id)),
      description,
      username: 'admin',
    }));
    groupIds.set(name, id);
  }
  for (const rule of DEMO_MSG_RULES) {
    await ensure(m, 'msg_event', { name: rule.name }, () => ({
      event_type: rule.eventType,
      condition: rule.condition,
      template_id: rule.template === null ? null : templateIds.get(rule.template),
      group_id: groupIds.get(rule.group),
      channels: [IN_SITE],
      level: rule.level,
      frequency: rule.frequency,
      enabled: rule.enabled,
      username: 'admin',
    }));
  }
  // Health checks of the demo's own services (127.0.0.1 only): an alert when one stops answering.
  const apiPort = process.env['API_PORT'] || '3000';
  const alerts: [
    name: string,
    group: string,
    jobType: string,
    target: string,
    expression: string,
    threshold: number,
    level: string,
  ][] = [
    ['API 服务健康检查', 'HTTP', 'HTTP', `http://127.0.0.1:${apiPort}/health#up`, 'LE', 0, 'EMERGENCY'],
    ['Redis 连接检查', 'REDIS', 'CONNECTION', '127.0.0.1:6379#up', 'LE', 0, 'IMPORTANT'],
    ['本机内存使用率', 'NODE', 'NODE', 'local#memory', 'GE', 95, 'MINOR'],
  ];
  for (const [name, alertGroup, jobType, target, expression, threshold, level] of alerts) {
    await ensure(m, 'msg_alert', { name }, () => ({
      alert_group: alertGroup,
      job_type: jobType,
      target,
      expression,
      threshold,
      template_id: templateIds.get('服务告警通知'),
      group_id: groupIds.get('场站值班组'),
      channels: [IN_SITE],
      level,
      frequency: 'THIRTY_MINUTES',
      enabled: true,
      username: 'admin',
    }));
  }
}
