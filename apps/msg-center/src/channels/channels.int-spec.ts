import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createTestDatabase, eventually, insertUser, TestDatabase } from '@voltdepot/server-testing';
import type { EventChannel } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { msgTestConfig, testNamespace } from '../fixtures/msg-center.fixtures';
import {
  ProviderServer,
  SmtpReceiver,
  startAliyunSms,
  startDingTalkRobot,
  startSmtp,
  startTencentSms,
  startWeComRobot,
} from '../fixtures/provider-servers';
import { GroupRepository, Recipient } from '../groups/group.repository';
import { DispatchRequest, MessageDispatcher } from '../jobs/message-dispatcher';
import { WorkerModule } from '../worker.module';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('channels: BullMQ jobs delivered by the worker to real protocol servers', () => {
  let db: TestDatabase;
  let config: MsgCenterConfig;
  let worker: INestApplicationContext;
  let dispatcher: MessageDispatcher;
  let smtp: SmtpReceiver;
  let dingtalk: ProviderServer;
  let wecom: ProviderServer;
  let aliyun: ProviderServer;
  let tencent: ProviderServer;
  let recipient: Recipient;
  let templateId: number;
  let tencentTemplateId: number;
  let tencentNamedTemplateId: number;

  const insertConfig = async (name: string, channel: string, provider: string | null, settings: object) =>
    (
      await db.dataSource.query(
        `INSERT INTO msg_config (config_name, full_name, channel, provider, settings) VALUES ($1, $1, $2, $3, $4) RETURNING id::int AS id`,
        [name, channel, provider, settings],
      )
    )[0].id as number;
  const insertTemplate = async (
    configId: number,
    msgKey: string,
    parameters: Record<string, string> = { pile: '${pile}', reason: '${reason}' },
  ) =>
    (
      await db.dataSource.query(
        `INSERT INTO msg_template (config_id, template_name, content, msg_key, type, parameters)
         VALUES ($1, '充电停止 \${pile}', '<p>充电桩\${pile}异常停止：\${reason}</p>', $2, '2', $3) RETURNING id::int AS id`,
        [configId, msgKey, parameters],
      )
    )[0].id as number;

  beforeAll(async () => {
    db = await createTestDatabase();
    config = msgTestConfig(db, testNamespace(), { MSG_JOB_ATTEMPTS: '2', MSG_JOB_BACKOFF_MS: '50' });
    [smtp, dingtalk, wecom, aliyun, tencent] = await Promise.all([
      startSmtp('mailer', 'smtp-pass'),
      startDingTalkRobot('ding-token', 'SECdingsecret'),
      startWeComRobot('wecom-key'),
      startAliyunSms('LTAIkeyid', 'aliyun-secret'),
      startTencentSms('AKIDtencent', 'tencent-secret'),
    ]);
    const emailConfig = await insertConfig('mail', 'EMAIL', null, {
      host: '127.0.0.1',
      port: smtp.port,
      user: 'mailer',
      password: 'smtp-pass',
      from: 'Voltdepot <noreply@voltdepot.test>',
      ignoreTLS: true,
    });
    await insertConfig('ding', 'DDTALK', 'TEXT', {
      webhook: `${dingtalk.url}/robot/send?access_token=ding-token`,
      secret: 'SECdingsecret',
    });
    await insertConfig('wecom', 'WECHAT', null, {
      webhook: `${wecom.url}/cgi-bin/webhook/send?key=wecom-key`,
    });
    await insertConfig('aliyun', 'SMS', 'ALIYUN', {
      accessKeyId: 'LTAIkeyid',
      accessKeySecret: 'aliyun-secret',
      signName: 'Voltdepot',
      endpoint: `127.0.0.1:${aliyun.port}`,
      protocol: 'http',
    });
    const tencentConfig = await insertConfig('tencent', 'SMS', 'TENCENT', {
      secretId: 'AKIDtencent',
      secretKey: 'tencent-secret',
      sdkAppId: '1400000000',
      signName: 'Voltdepot',
      endpoint: `127.0.0.1:${tencent.port}`,
      protocol: 'http://',
    });
    templateId = await insertTemplate(emailConfig, 'SMS_001');
    // Tencent parameters by number ({1}, {2}, …): stored in another key order than their positions, and
    // with a "station" key jsonb would have sorted before "reason" had the keys been names.
    tencentTemplateId = await insertTemplate(tencentConfig, '1234567', {
      '3': '${reason}',
      '1': '${pile}',
      '2': 'station 7',
    });
    tencentNamedTemplateId = await insertTemplate(tencentConfig, '1234568', {
      station: 'station 7',
      reason: '${reason}',
    });

    const user = await insertUser(db.dataSource, ['operator']);
    await db.dataSource.query(
      `UPDATE sys_user SET email = 'ops@voltdepot.test', phone = '13800000000' WHERE id = $1`,
      [user.id],
    );
    const group = await db.dataSource.query(
      `INSERT INTO msg_group (name, type, member_ids) VALUES ('ops', 'USER', $1) RETURNING id::int AS id`,
      [[user.id]],
    );
    worker = await NestFactory.createApplicationContext(WorkerModule.register(config), { logger: false });
    dispatcher = worker.get(MessageDispatcher);
    [recipient] = await worker.get(GroupRepository).recipients(group[0].id);
  });

  afterAll(async () => {
    await worker?.close();
    await Promise.all([smtp, dingtalk, wecom, aliyun, tencent].map((s) => s?.close()));
    await db?.drop();
  });

  const request = (
    eventKey: string,
    channels: EventChannel[],
    overrides: Partial<DispatchRequest> = {},
  ): DispatchRequest => ({
    eventKey,
    ruleKind: 'manual',
    ruleId: null,
    templateId,
    channels,
    recipients: [recipient],
    values: { pile: 'CP-1', reason: '紧急停止' },
    fallback: { title: 'x', content: 'x' },
    ...overrides,
  });
  const logs = async (eventKey: string) =>
    (await db.dataSource.query(
      `SELECT channel, status, attempts, error, receiver FROM msg_send_log WHERE event_key = $1 ORDER BY channel`,
      [eventKey],
    )) as { channel: number; status: string; attempts: number; error: string | null; receiver: string }[];

  it('sends one message per receiver and channel, verified by each provider, and never twice per event', async () => {
    const first = await dispatcher.dispatch(request('ev-1', [0, 1, 2, 3, 4]));
    expect(first.queued).toEqual([
      'ev-1.u' + recipient.userId + '.c0',
      'ev-1.u' + recipient.userId + '.c1',
      expect.stringMatching(/^ev-1\.robot\d+\.c2$/),
      expect.stringMatching(/^ev-1\.robot\d+\.c3$/),
      'ev-1.u' + recipient.userId + '.c4',
    ]);
    await eventually(async () =>
      expect((await logs('ev-1')).map((l) => l.status)).toEqual(Array(5).fill('SUCCESS')),
    );

    expect(smtp.accepted).toHaveLength(1);
    expect(smtp.accepted[0]).toMatchObject({
      to: ['ops@voltdepot.test'],
      messageId: `<ev-1.u${recipient.userId}.c1@voltdepot.msg-center>`,
    });
    const subject = /=\?UTF-8\?B\?(.+)\?=/.exec(smtp.accepted[0].subject)?.[1];
    expect(Buffer.from(subject ?? '', 'base64').toString('utf8')).toBe('充电停止 CP-1');
    expect(dingtalk.rejected).toEqual([]);
    expect(dingtalk.accepted.map((r) => r.body)).toEqual([
      {
        msgtype: 'text',
        text: { content: '充电停止 CP-1\n充电桩CP-1异常停止：紧急停止' },
        at: { atMobiles: ['13800000000'], isAtAll: false },
      },
    ]);
    expect(wecom.accepted.map((r) => r.body)).toEqual([
      {
        msgtype: 'text',
        text: {
          content: '充电停止 CP-1\n充电桩CP-1异常停止：紧急停止',
          mentioned_mobile_list: ['13800000000'],
        },
      },
    ]);
    expect(aliyun.rejected).toEqual([]);
    expect(aliyun.accepted).toHaveLength(1);
    const aliyunParams = { ...aliyun.accepted[0].query, ...aliyun.accepted[0].body };
    expect(aliyunParams).toMatchObject({
      PhoneNumbers: '13800000000',
      SignName: 'Voltdepot',
      TemplateCode: 'SMS_001',
    });
    expect(JSON.parse(String(aliyunParams['TemplateParam']))).toEqual({ pile: 'CP-1', reason: '紧急停止' });
    const inbox = await db.dataSource.query(`SELECT title, content FROM msg_inbox WHERE user_id = $1`, [
      recipient.userId,
    ]);
    expect(inbox).toEqual([{ title: '充电停止 CP-1', content: '<p>充电桩CP-1异常停止：紧急停止</p>' }]);

    // The same event again (a redelivery): same job ids, nothing sent a second time.
    const again = await dispatcher.dispatch(request('ev-1', [0, 1, 2, 3, 4]));
    expect(again.queued).toEqual(first.queued);
    await sleep(800);
    expect([
      smtp.accepted.length,
      dingtalk.accepted.length,
      wecom.accepted.length,
      aliyun.accepted.length,
    ]).toEqual([1, 1, 1, 1]);
    expect(await db.dataSource.query(`SELECT count(*)::int AS n FROM msg_inbox`)).toEqual([{ n: 1 }]);
  });

  it('sends SMS through Tencent with a valid TC3 signature', async () => {
    await dispatcher.dispatch(request('ev-tencent', [0], { templateId: tencentTemplateId }));
    await eventually(async () => expect((await logs('ev-tencent'))[0]?.status).toBe('SUCCESS'));
    expect(tencent.rejected).toEqual([]);
    expect(tencent.accepted[0].body).toMatchObject({
      PhoneNumberSet: ['+8613800000000'],
      SmsSdkAppId: '1400000000',
      SignName: 'Voltdepot',
      TemplateId: '1234567',
      TemplateParamSet: ['CP-1', 'station 7', '紧急停止'],
    });
  });

  it('refuses Tencent parameters that are not numbered (their positions would be a guess): a failed send, nothing sent', async () => {
    const before = tencent.accepted.length;
    await dispatcher.dispatch(request('ev-tencent-named', [0], { templateId: tencentNamedTemplateId }));
    await eventually(async () =>
      expect(await logs('ev-tencent-named')).toEqual([
        expect.objectContaining({
          status: 'FAILED',
          error: expect.stringContaining('Tencent SMS parameters are positional'),
        }),
      ]),
    );
    expect(tencent.accepted).toHaveLength(before);
  });

  it('records a missing ${XXX} variable as a failed send with a clear error, and sends nothing', async () => {
    const outcome = await dispatcher.dispatch(request('ev-missing', [1, 4], { values: { pile: 'CP-2' } }));
    expect(outcome.queued).toEqual([]);
    expect(await logs('ev-missing')).toEqual([
      expect.objectContaining({
        channel: 1,
        status: 'FAILED',
        error: 'Template variable(s) missing: ${reason}',
      }),
      expect.objectContaining({
        channel: 4,
        status: 'FAILED',
        error: 'Template variable(s) missing: ${reason}',
      }),
    ]);
  });

  it('retries with backoff; a provider that keeps failing leaves a failed job and its error in the send log', async () => {
    wecom.failNext(1);
    dingtalk.failNext(10);
    await dispatcher.dispatch(request('ev-retry', [2, 3]));
    await eventually(async () =>
      expect(
        (await logs('ev-retry')).map(({ status, attempts, error }) => ({ status, attempts, error })),
      ).toEqual([
        { status: 'SUCCESS', attempts: 2, error: null },
        { status: 'FAILED', attempts: 2, error: 'DingTalk error 310000: provider busy' },
      ]),
    );
    dingtalk.failNext(0);
    const failed = await dispatcher.queue(3).getFailed();
    expect(failed.map((j) => j.id)).toContainEqual(expect.stringMatching(/^ev-retry\.robot\d+\.c3$/));
    expect(failed[0].failedReason).toBe('DingTalk error 310000: provider busy');
  });

  it("shows the provider's signature error, and never the credentials", async () => {
    await db.dataSource.query(
      `UPDATE msg_config SET settings = jsonb_set(settings, '{accessKeySecret}', '"wrong-secret"') WHERE config_name = 'aliyun'`,
    );
    await dispatcher.dispatch(request('ev-badsig', [0]));
    await eventually(async () => expect((await logs('ev-badsig'))[0]?.status).toBe('FAILED'));
    const [log] = await logs('ev-badsig');
    expect(log.error).toContain('SignatureDoesNotMatch');
    expect(log.error).not.toContain('wrong-secret');
    expect(aliyun.rejected).toContain('SignatureDoesNotMatch');
  });
});
