import {
  createTestDatabase,
  eventually,
  insertRole,
  insertUser,
  TestDatabase,
} from '@voltdepot/server-testing';
import { STOMP_INBOX_TOPIC } from '@voltdepot/shared-contracts';
import request from 'supertest';
import type { MsgCenterConfig } from './app.config';
import {
  connectStomp,
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  testNamespace,
  tokenFor,
} from './fixtures/msg-center.fixtures';

const BASE = '/ms/m1/msg';

describe('message service API /ms/m1/msg (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let config: MsgCenterConfig;
  let service: RunningMsgCenter;
  let admin: { id: number; username: string };
  let adminToken: string;
  let maintainerToken: string;
  /** A role holding the five message-centre menus and none of their add/edit/delete buttons. */
  let menuOnlyToken: string;
  let configId: number;

  const http = () => request(service.app.getHttpServer());
  const as = (token: string) => ({
    get: (path: string) => http().get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) =>
      http().post(path).set('Authorization', `Bearer ${token}`).send(body),
    put: (path: string, body?: object) => http().put(path).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => http().delete(path).set('Authorization', `Bearer ${token}`),
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    // The depot network (10/8) allowed as an administrator would; other internal addresses are not.
    config = msgTestConfig(db, testNamespace(), {
      OUTBOUND_ALLOWED_HOSTS: 'localhost,127.0.0.0/8,::1,10.0.0.0/8',
    });
    service = await startMsgCenter(config);
    admin = await insertUser(db.dataSource, ['admin']);
    adminToken = await tokenFor(config, admin);
    maintainerToken = await tokenFor(config, await insertUser(db.dataSource, ['maintainer']));
    await insertRole(db.dataSource, 'msg_menus_only', [
      'msg:config',
      'msg:template',
      'msg:group',
      'msg:event',
      'msg:alerts',
    ]);
    menuOnlyToken = await tokenFor(config, await insertUser(db.dataSource, ['msg_menus_only']));
    const res = await as(adminToken)
      .post(`${BASE}/config`, {
        configName: 'Ops mail',
        fullName: 'Operations e-mail',
        channel: 'EMAIL',
        settings: { host: 'smtp.example.com', port: 25, password: 'p4ss', from: 'ops@example.com' },
      })
      .expect(201);
    configId = res.body.id;
  });

  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  const guarded: [string, string][] = [
    ['get', `${BASE}/config/search`],
    ['get', `${BASE}/config`],
    ['get', `${BASE}/config/page/1/size/10`],
    ['post', `${BASE}/config`],
    ['put', `${BASE}/config/1`],
    ['delete', `${BASE}/config/1`],
    ['get', `${BASE}/template/page/1/size/10`],
    ['post', `${BASE}/template`],
    ['put', `${BASE}/template/1`],
    ['delete', `${BASE}/template/1`],
    ['get', `${BASE}/template/group/1`],
    ['get', `${BASE}/prometheus/targets?job=NODE`],
    ['get', '/ms/prometheus/targets?job=NODE'],
    ['get', `${BASE}/receiver/role`],
    ['get', `${BASE}/receiver/user`],
    ['get', `${BASE}/group/page/1/size/100`],
    ['post', `${BASE}/group`],
    ['put', `${BASE}/group/1`],
    ['delete', `${BASE}/group/1`],
    ['get', `${BASE}/group/search`],
    ['get', `${BASE}/event/page/1/size/10`],
    ['get', `${BASE}/send_log/page/1/size/10`],
    ['get', `${BASE}/alerts/page/1/size/10`],
    ['post', `${BASE}/alerts`],
    ['put', `${BASE}/alerts/1`],
    ['delete', `${BASE}/alerts/1`],
  ];
  const anyUser: [string, string][] = [
    ['get', `${BASE}/dictionaries/dict/tree`],
    ['get', '/ms/dictionaries/dict/tree'],
    ['get', `${BASE}/inbox/page/1/size/10`],
    ['post', `${BASE}/inbox/read`],
    ['post', `${BASE}/inbox/read/all`],
    ['post', `${BASE}/inbox/del`],
    ['get', `${BASE}/inbox/unread`],
  ];

  it.each([...guarded, ...anyUser])('%s %s without a token is 401', async (method, path) => {
    const client = http() as unknown as Record<string, (p: string) => request.Test>;
    const res = await client[method](path).expect(401);
    expect(res.body.code).toBe('AUTH_TOKEN_MISSING');
  });

  it.each(guarded)('%s %s without the msg permission is 403', async (method, path) => {
    const client = as(maintainerToken) as unknown as Record<string, (p: string, b?: object) => request.Test>;
    const res = await client[method](path, {}).expect(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });

  // The add/edit/delete buttons are checked here too, not only hidden by the console.
  const writes: [string, string, string][] = (
    [
      ['config', 'config'],
      ['template', 'template'],
      ['group', 'group'],
      ['event', 'event'],
      ['alerts', 'alerts'],
    ] as const
  ).flatMap(([path, menu]): [string, string, string][] => [
    ['post', `${BASE}/${path}`, `msg:${menu}:add`],
    ['put', `${BASE}/${path}/1`, `msg:${menu}:edit`],
    ['delete', `${BASE}/${path}/1`, `msg:${menu}:delete`],
  ]);

  it.each(writes)(
    '%s %s with the menu but without the button is 403 naming %s',
    async (method, path, code) => {
      const client = as(menuOnlyToken) as unknown as Record<string, (p: string, b?: object) => request.Test>;
      const res = await client[method](path, {}).expect(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', details: { missing: [code] } });
    },
  );

  it.each([
    `${BASE}/config/page/1/size/10`,
    `${BASE}/template/page/1/size/10`,
    `${BASE}/group/page/1/size/100`,
    `${BASE}/event/page/1/size/10`,
    `${BASE}/alerts/page/1/size/10`,
  ])('GET %s with the menu alone is allowed', async (path) => {
    await as(menuOnlyToken).get(path).expect(200);
  });

  it.each([
    ['1e300', '10', /page: must be a whole number written in decimal digits/],
    ['0x10', '10', /page: must be a whole number written in decimal digits/],
    ['100001', '10', /page: Number must be less than or equal to 100000/],
    ['1', '1001', /size: Number must be less than or equal to 1000/],
    ['0', '10', /page: Number must be greater than or equal to 1/],
  ])(
    'GET a grid at page %s, size %s: 400 naming the parameter, never a database error',
    async (page, size, message) => {
      for (const grid of ['config', 'template', 'send_log', 'inbox']) {
        const res = await as(adminToken).get(`${BASE}/${grid}/page/${page}/size/${size}`).expect(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(res.body.message).toMatch(message);
      }
    },
  );

  // Ids are bigint columns: a number beyond them must be refused, not sent to PostgreSQL (a 500).
  it.each([
    ['post', `${BASE}/template`, { templateName: 't', type: '1', configId: 1e19 }, 'configId'],
    ['post', `${BASE}/group`, { name: 'g', type: 'USER', memberIds: [1e19] }, 'memberIds.0'],
    ['post', `${BASE}/event`, { name: 'e', eventType: 'pile.error', templateId: 1e19 }, 'templateId'],
    ['post', `${BASE}/event`, { name: 'e', eventType: 'pile.error', groupId: 1e300 }, 'groupId'],
    [
      'post',
      `${BASE}/alerts`,
      { name: 'a', alertGroup: 'HTTP', jobType: 'HTTP', target: 'http://x/', threshold: 1, templateId: 1e19 },
      'templateId',
    ],
    ['post', `${BASE}/inbox/read`, [1e19], '0'],
  ] as const)('%s %s with an id beyond the id columns: 400 naming %j', async (method, path, body, field) => {
    const client = as(adminToken);
    const res = await client[method](path, body as object).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details).toContainEqual(expect.objectContaining({ field }));
  });

  it('GET the templates filtered by a configId beyond the id columns: 400', async () => {
    const res = await as(adminToken).get(`${BASE}/template/page/1/size/10?configId=1${'0'.repeat(19)}`);
    expect(res.status).toBe(400);
  });

  describe('configs', () => {
    it('masks credentials and keeps them when the mask is sent back', async () => {
      const page = await as(adminToken).get(`${BASE}/config/page/1/size/10?configName=ops`).expect(200);
      expect(page.body).toMatchObject({ total: 1, list: [{ id: configId, configName: 'Ops mail' }] });
      expect(page.body.list[0].settings).toEqual({
        host: 'smtp.example.com',
        port: 25,
        password: '******',
        from: 'ops@example.com',
      });
      await as(adminToken)
        .put(`${BASE}/config/${configId}`, {
          configName: 'Ops mail',
          fullName: 'Operations e-mail',
          channel: 'EMAIL',
          settings: { ...page.body.list[0].settings, port: 2525 },
        })
        .expect(200);
      const rows = await db.dataSource.query(`SELECT settings FROM msg_config WHERE id = $1`, [configId]);
      expect(rows[0].settings).toMatchObject({ port: 2525, password: 'p4ss' });
      expect((await as(adminToken).get(`${BASE}/config`).expect(200)).body).toHaveLength(1);
      expect((await as(adminToken).get(`${BASE}/config/search?channel=SMS`).expect(200)).body).toEqual([]);
    });

    it.each([
      ['DDTALK', 'TEXT', 'https://oapi.dingtalk.com/robot/send?access_token=ding-token'],
      ['WECHAT', null, 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=wecom-key'],
    ])(
      'masks the %s robot webhook (it carries the token) and keeps it when the mask is sent back',
      async (channel, provider, webhook) => {
        const created = await as(adminToken)
          .post(`${BASE}/config`, {
            configName: `${channel} robot`,
            fullName: 'Robot',
            channel,
            provider,
            settings: { webhook },
          })
          .expect(201);
        const listed = await as(adminToken).get(`${BASE}/config/search?channel=${channel}`).expect(200);
        expect(listed.body).toEqual([
          expect.objectContaining({ id: created.body.id, settings: { webhook: '******' } }),
        ]);
        const page = await as(adminToken).get(`${BASE}/config/page/1/size/10?channel=${channel}`).expect(200);
        expect(JSON.stringify([listed.body, page.body])).not.toContain(webhook.split('?')[1]);
        await as(adminToken)
          .put(`${BASE}/config/${created.body.id}`, {
            configName: `${channel} robot`,
            fullName: 'Robot 2',
            channel,
            provider,
            settings: { webhook: '******' },
          })
          .expect(200);
        const [row] = await db.dataSource.query(`SELECT settings FROM msg_config WHERE id = $1`, [
          created.body.id,
        ]);
        expect(row.settings).toEqual({ webhook });
        await as(adminToken).delete(`${BASE}/config/${created.body.id}`).expect(200);
      },
    );

    /** A value nested `levels` deep, written out by `jsonText` (JSON.stringify gives up on 5,000 levels). */
    const nested = (levels: number) => `<nested ${levels}>`;
    const jsonText = (value: unknown): string =>
      JSON.stringify(value).replace(
        /"<nested (\d+)>"/g,
        (_m, n: string) => `${'{"a":'.repeat(Number(n))}1${'}'.repeat(Number(n))}`,
      );
    const config = (settings: unknown, extra: object = {}) => ({
      configName: 'Hostile',
      fullName: 'x',
      channel: 'EMAIL',
      settings,
      ...extra,
    });
    const invalid = (field: string, message: string) => ({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: `Validation failed: ${field}: ${message}`,
      details: [{ field, message }],
    });
    it.each([
      [
        'settings nested 5,000 deep (a 500 from the database driver before)',
        config(nested(5000)),
        {
          status: 400,
          code: 'VALIDATION_FAILED',
          message: 'Request body is nested more than 32 levels deep',
          details: { maxDepth: 32 },
        },
      ],
      [
        'settings nested 3 deep (stored before)',
        config({ host: nested(2) }),
        invalid('settings', 'must be nested at most 1 level deep'),
      ],
      [
        'settings with 40,000 keys (stored before, every config page weighed 723 KB)',
        config(Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, 1]))),
        invalid('settings', 'must have at most 20 keys and items'),
      ],
      [
        'settings over 16 KB',
        config({ host: 'h'.repeat(200), from: 'x'.repeat(17_000) }),
        invalid('settings', 'must be at most 16384 bytes as JSON'),
      ],
      [
        'a setting the channel does not read',
        config({ host: 'smtp.example.com', hots: 'x' }),
        invalid('settings', "Unrecognized key(s) in object: 'hots'"),
      ],
      ['a port that is no port', config({ port: 'smtp' }), invalid('settings.port', 'must be a port number')],
      [
        'a robot webhook that is no URL',
        config({ webhook: 'javascript:alert(1)' }, { channel: 'WECHAT' }),
        invalid('settings.webhook', 'must be an http(s) URL'),
      ],
      [
        'an SMS configuration without a provider',
        config({}, { channel: 'SMS' }),
        invalid('provider', 'must be ALIYUN or TENCENT for an SMS configuration'),
      ],
    ])('refuses %s', async (_case, body, expected) => {
      const res = await as(adminToken)
        .post(`${BASE}/config`)
        .set('content-type', 'application/json')
        .send(jsonText(body));
      const { status, ...error } = expected;
      expect({ status: res.status, body: res.body }).toEqual({
        status,
        body: { ...error, correlationId: expect.any(String) },
      });
    });

    it('refuses a duplicate name with 409', async () => {
      const res = await as(adminToken)
        .post(`${BASE}/config`, { configName: 'Ops mail', fullName: 'x', channel: 'EMAIL' })
        .expect(409);
      expect(res.body.code).toBe('MSG_CONFIG_NAME_TAKEN');
    });
  });

  describe('templates', () => {
    const valid = () => ({
      configId,
      templateName: 'Stop alarm',
      type: '2',
      content: '<p>Pile ${pile} stopped</p><script>alert(1)</script>',
      msgKey: 'SMS_1234',
      parameters: [
        { key: 'pile', value: 'CP-1' },
        { key: 'reason', value: 'x' },
      ],
    });

    it.each([
      ['configId missing', { configId: undefined }, 'configId', 'Please select configuration ID'],
      ['configId empty', { configId: '' }, 'configId', 'Please select configuration ID'],
      ['templateName missing', { templateName: undefined }, 'templateName', 'Please enter template name'],
      ['templateName blank', { templateName: '  ' }, 'templateName', 'Please enter template name'],
      ['type missing', { type: undefined }, 'type', 'Please select extension content'],
      ['type unknown', { type: '7' }, 'type', 'Please select extension content'],
      ['an empty key', { parameters: [{ key: ' ', value: 'v' }] }, 'parameters.0', 'key cannot be empty'],
      [
        'a duplicated key',
        {
          parameters: [
            { key: 'a', value: '1' },
            { key: 'a', value: '2' },
          ],
        },
        'parameters.1',
        'key cannot be duplicated',
      ],
      ['an empty key in a map', { parameters: { '': 'v' } }, 'parameters.0', 'key cannot be empty'],
      ['content over 10 MB', { content: 'x'.repeat(10_485_761) }, 'content', 'Please do not exceed 10MB'],
      [
        'a nested value in a map (stored as "[object Object]" before)',
        { parameters: { a: { b: 'c' } } },
        'parameters.a',
        'must be text, a number or a boolean',
      ],
      [
        'parameters nested 3 deep (a nested value in a pair)',
        { parameters: [{ key: 'a', value: ['x'] }] },
        'parameters',
        'must be nested at most 2 levels deep',
      ],
      [
        'over 300 parameter keys',
        { parameters: Object.fromEntries(Array.from({ length: 301 }, (_, i) => [`k${i}`, 'v'])) },
        'parameters',
        'must have at most 300 keys and items',
      ],
    ])('refuses %s with 400 naming the field', async (_case, override, field, message) => {
      const res = await as(adminToken)
        .post(`${BASE}/template`, { ...valid(), ...override })
        .expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details).toContainEqual({ field, message });
    });

    it('numbers the parameters of a Tencent SMS template 1..n (positional {1}, {2}, …): 400 otherwise', async () => {
      const tencent = await as(adminToken)
        .post(`${BASE}/config`, {
          configName: 'Tencent SMS',
          fullName: 'SMS',
          channel: 'SMS',
          provider: 'TENCENT',
        })
        .expect(201);
      const body = (parameters: Record<string, string>) => ({
        ...valid(),
        configId: tencent.body.id,
        parameters,
      });
      const named = await as(adminToken)
        .post(`${BASE}/template`, body({ pile: '${pile}', reason: 'x' }))
        .expect(400);
      expect(named.body.details).toEqual([
        {
          field: 'parameters',
          message:
            'Tencent SMS parameters are positional ({1}, {2}, …): name the keys 1 to 2 (got pile, reason)',
        },
      ]);
      const added = await as(adminToken)
        .post(`${BASE}/template`, body({ '2': 'x', '1': '${pile}' }))
        .expect(201);
      await as(adminToken)
        .put(`${BASE}/template/${added.body.id}`, body({ '1': '${pile}', '3': 'x' }))
        .expect(400);
      await as(adminToken).delete(`${BASE}/template/${added.body.id}`).expect(200);
      await as(adminToken).delete(`${BASE}/config/${tencent.body.id}`).expect(200);
    });

    it('adds (answering the id), sanitises, lists, edits and deletes a template', async () => {
      const added = await as(adminToken).post(`${BASE}/template`, valid()).expect(201);
      expect(added.body).toEqual({ id: expect.any(Number) });
      const id = added.body.id;
      const page = await as(adminToken).get(`${BASE}/template/page/1/size/10?templateName=stop`).expect(200);
      expect(page.body.total).toBe(1);
      expect(page.body.list[0]).toMatchObject({
        id,
        configId,
        templateName: 'Stop alarm',
        config: { configName: 'Ops mail', fullName: 'Operations e-mail' },
        content: '<p>Pile ${pile} stopped</p>',
        msgKey: 'SMS_1234',
        type: '2',
        parameters: { pile: 'CP-1', reason: 'x' },
        username: admin.username,
        editable: true,
        createTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      });
      expect((await as(adminToken).get(`${BASE}/template/group/${configId}`).expect(200)).body).toHaveLength(
        1,
      );
      await as(adminToken)
        .put(`${BASE}/template/${id}`, { ...valid(), templateName: 'Renamed', parameters: { a: 1 } })
        .expect(200);
      const [row] = await db.dataSource.query(
        `SELECT template_name, parameters FROM msg_template WHERE id = $1`,
        [id],
      );
      expect(row).toEqual({ template_name: 'Renamed', parameters: { a: '1' } });
      expect((await as(adminToken).delete(`${BASE}/template/${id}`).expect(200)).body).toBe(true);
      await as(adminToken).delete(`${BASE}/template/${id}`).expect(404);
    });

    it('refuses to delete a template that is not editable (409) and a config with templates (409)', async () => {
      const { body } = await as(adminToken)
        .post(`${BASE}/template`, { ...valid(), editable: false })
        .expect(201);
      const res = await as(adminToken).delete(`${BASE}/template/${body.id}`).expect(409);
      expect(res.body).toMatchObject({
        code: 'MSG_TEMPLATE_NOT_EDITABLE',
        message: 'This template is not editable and cannot be deleted',
      });
      const config = await as(adminToken).delete(`${BASE}/config/${configId}`).expect(409);
      expect(config.body.code).toBe('MSG_CONFIG_IN_USE');
    });

    it('refuses an unknown configuration with 404', async () => {
      const res = await as(adminToken)
        .post(`${BASE}/template`, { ...valid(), configId: 999_999 })
        .expect(404);
      expect(res.body.code).toBe('MSG_CONFIG_NOT_FOUND');
    });
  });

  describe('groups, receivers, events, alerts, send log, dictionaries', () => {
    it('manages groups by role and by user', async () => {
      const roles = (await as(adminToken).get(`${BASE}/receiver/role`).expect(200)).body;
      expect(roles).toContainEqual({ id: expect.any(Number), name: 'Administrator' });
      const users = (await as(adminToken).get(`${BASE}/receiver/user`).expect(200)).body;
      expect(users).toContainEqual({ id: admin.id, name: `${admin.username} (${admin.username})` });

      const byRole = await as(adminToken)
        .post(`${BASE}/group`, { name: 'Admins', type: 'ROLE', memberIds: [roles[0].id] })
        .expect(201);
      await as(adminToken)
        .post(`${BASE}/group`, { name: 'Me', type: 'USER', memberIds: [admin.id] })
        .expect(201);
      await as(adminToken).post(`${BASE}/group`, { name: 'Nobody', type: 'NONE' }).expect(201);
      const bad = await as(adminToken)
        .post(`${BASE}/group`, { name: 'Ghosts', type: 'USER', memberIds: [987_654] })
        .expect(400);
      expect(bad.body.details).toEqual([{ field: 'memberIds', message: 'unknown user id(s): 987654' }]);
      expect(
        (await as(adminToken).post(`${BASE}/group`, { name: 'Empty', type: 'ROLE' }).expect(400)).body
          .details,
      ).toEqual([{ field: 'memberIds', message: 'Please select at least one receiver' }]);

      const all = await as(adminToken).get(`${BASE}/group/page/1/size/100`).expect(200);
      expect(all.body.total).toBe(3);
      expect((await as(adminToken).get(`${BASE}/group/search?type=ROLE`).expect(200)).body).toHaveLength(1);
      await as(adminToken)
        .put(`${BASE}/group/${byRole.body.id}`, { name: 'Admins 2', type: 'ROLE', memberIds: [roles[0].id] })
        .expect(200);
      expect((await as(adminToken).delete(`${BASE}/group/${byRole.body.id}`).expect(200)).body).toBe(true);
    });

    it('lists event rules, send logs and alerts; serves Prometheus targets', async () => {
      await as(adminToken)
        .post(`${BASE}/event`, {
          name: 'Abnormal stops',
          eventType: 'transaction.stopped',
          condition: { stopKind: 'abnormal' },
          channels: [4],
        })
        .expect(201);
      const events = await as(adminToken).get(`${BASE}/event/page/1/size/10`).expect(200);
      expect(events.body).toMatchObject({
        total: 1,
        list: [{ name: 'Abnormal stops', channels: [4], level: 'PROMPT' }],
      });
      expect((await as(adminToken).get(`${BASE}/send_log/page/1/size/10`).expect(200)).body).toEqual({
        list: [],
        total: 0,
      });

      const alert = await as(adminToken)
        .post(`${BASE}/alerts`, {
          name: 'Node exporter',
          alertGroup: 'NODE',
          jobType: 'NODE',
          target: '10.0.0.5:9100',
          expression: 'GE',
          threshold: 90,
          channels: [1, 4, 1],
          level: 'IMPORTANT',
          frequency: 'HOURS',
        })
        .expect(201);
      const alerts = await as(adminToken).get(`${BASE}/alerts/page/1/size/10`).expect(200);
      expect(alerts.body.list[0]).toMatchObject({
        id: alert.body.id,
        channels: [1, 4],
        threshold: 90,
        status: 'DEFAULT',
      });
      const bad = await as(adminToken)
        .post(`${BASE}/alerts`, {
          name: 'x',
          alertGroup: 'NODE',
          jobType: 'NODE',
          target: 'h:1',
          threshold: 1,
          channels: [5],
        })
        .expect(400);
      expect(bad.body.details).toEqual([{ field: 'channels.0', message: 'channels are 0 to 4' }]);
      expect((await as(adminToken).get(`/ms/prometheus/targets?job=NODE`).expect(200)).body).toEqual([
        {
          targets: ['10.0.0.5:9100'],
          labels: {
            job: 'node',
            source: 'alert',
            alert: 'Node exporter',
            alert_group: 'NODE',
            level: 'IMPORTANT',
            __scheme__: 'http',
            __metrics_path__: '/metrics',
          },
        },
      ]);
      expect((await as(adminToken).delete(`${BASE}/alerts/${alert.body.id}`).expect(200)).body).toBe(true);
      await as(adminToken).delete(`${BASE}/alerts/${alert.body.id}`).expect(404);
    });

    it.each([
      [
        'HTTP',
        'not a url',
        "'not a url' is not a URL; a HTTP target is http(s)://host[:port]/path[#up|#latency]",
      ],
      [
        'CONNECTION',
        'db.local',
        "'db.local' is not host:port; a CONNECTION target is [tcp://]host:port[#up|#latency]",
      ],
      ['KAFKA', 'billing', 'no Kafka brokers: write kafka://host:port/<group> or set KAFKA_BROKERS'],
      ['NODE', 'local#disk', "unknown metric 'disk' (cpu, memory or load1)"],
      ['REDIS', 'promql:up', 'promql: targets need a Prometheus (MSG_PROMETHEUS_URL is not configured)'],
      // An outside test: the checker would have fetched the cloud metadata service.
      [
        'HTTP',
        'http://169.254.169.254/latest/meta-data/',
        '169.254.169.254 is a link-local, metadata or reserved address, where outbound requests never go',
      ],
      [
        'REDIS',
        'redis://192.168.1.20:6379',
        '192.168.1.20 is an internal address: an administrator must allow 192.168.1.20 (OUTBOUND_ALLOWED_HOSTS)',
      ],
    ])('refuses a %s alert with target %s (400 naming target)', async (jobType, target, message) => {
      const res = await as(adminToken)
        .post(`${BASE}/alerts`, { name: 'x', alertGroup: jobType, jobType, target, threshold: 1 })
        .expect(400);
      expect(res.body.details).toEqual([{ field: 'target', message: expect.stringContaining(message) }]);
      expect(res.body.message).toBe(`Validation failed: target: ${res.body.details[0].message}`);
    });

    it.each(['/ms/dictionaries/dict/tree', `${BASE}/dictionaries/dict/tree`])(
      'serves the dictionary tree to any signed-in user at %s',
      async (path) => {
        const res = await as(maintainerToken).get(`${path}?code=message_type`).expect(200);
        expect(res.body).toEqual([
          expect.objectContaining({
            code: 'message_type',
            children: [
              expect.objectContaining({ value: '0', name: 'None' }),
              expect.objectContaining({ value: '1', name: 'Link' }),
              expect.objectContaining({ value: '2', name: 'Email' }),
            ],
          }),
        ]);
      },
    );
  });

  describe('inbox', () => {
    let user: { id: number; username: string };
    let token: string;
    let otherToken: string;
    let ids: number[];

    beforeAll(async () => {
      user = await insertUser(db.dataSource, ['fleet_manager']);
      token = await tokenFor(config, user);
      otherToken = await tokenFor(config, await insertUser(db.dataSource, ['fleet_manager']));
      const rows = await db.dataSource.query(
        `INSERT INTO msg_inbox (user_id, title, content, sender, send_time, dedupe_key) VALUES
           ($1, 'Old', 'c0', 'system', '2025-01-01T01:00:00Z', 'a'),
           ($1, 'Mid', 'c1', 'system', '2025-01-02T01:00:00Z', 'b'),
           ($1, 'New', 'c2', 'system', '2025-01-03T01:00:00Z', 'c')
         RETURNING id::int AS id`,
        [user.id],
      );
      ids = rows.map((r: { id: number }) => r.id);
    });

    it("pages the caller's messages within start and end (business time), newest first", async () => {
      const res = await as(token)
        .get(`${BASE}/inbox/page/1/size/10?start=2025-01-02 00:00:00&end=2025-01-03 23:59:59`)
        .expect(200);
      expect(res.body).toEqual({
        total: 2,
        list: [
          {
            id: ids[2],
            title: 'New',
            content: 'c2',
            sender: 'system',
            sendTime: '2025-01-03 09:00:00',
            isRead: false,
          },
          {
            id: ids[1],
            title: 'Mid',
            content: 'c1',
            sender: 'system',
            sendTime: '2025-01-02 09:00:00',
            isRead: false,
          },
        ],
      });
      expect((await as(otherToken).get(`${BASE}/inbox/page/1/size/10`).expect(200)).body).toEqual({
        list: [],
        total: 0,
      });
      const bad = await as(token).get(`${BASE}/inbox/page/1/size/10?start=yesterday`).expect(400);
      expect(bad.body.details).toEqual([{ field: 'start', message: 'expected yyyy-MM-dd HH:mm:ss' }]);
    });

    it("pushes the unread messages to the caller's socket on inbox/unread", async () => {
      const client = await connectStomp(service.wsUrl, { Authorization: `Bearer ${token}` }, [
        STOMP_INBOX_TOPIC,
      ]);
      try {
        const res = await as(token).get(`${BASE}/inbox/unread`).expect(200);
        expect(res.body.map((m: { title: string }) => m.title)).toEqual(['New', 'Mid', 'Old']);
        await eventually(() =>
          expect(client.received(STOMP_INBOX_TOPIC)).toEqual([
            { handler: 'inbox.unread', command: 'unread', data: res.body },
          ]),
        );
      } finally {
        await client.close();
      }
    });

    it('marks read, refuses an empty selection, deletes only own messages, marks all read', async () => {
      const empty = await as(token).post(`${BASE}/inbox/read`, []).expect(400);
      expect(empty.body.details).toEqual([{ field: '(root)', message: 'please tick at least one row' }]);
      expect(
        (
          await as(token)
            .post(`${BASE}/inbox/read`, { ids: [ids[0]] })
            .expect(200)
        ).body,
      ).toEqual({ updated: 1 });
      expect((await as(token).get(`${BASE}/inbox/unread`).expect(200)).body).toHaveLength(2);
      // Someone else's ids: nothing deleted, falsy answer.
      expect((await as(otherToken).post(`${BASE}/inbox/del`, [ids[1]]).expect(200)).body).toBe(false);
      expect((await as(token).post(`${BASE}/inbox/del`, [ids[1]]).expect(200)).body).toBe(true);
      expect((await as(token).post(`${BASE}/inbox/read/all`).expect(200)).body).toEqual({ updated: 1 });
      expect((await as(token).get(`${BASE}/inbox/unread`).expect(200)).body).toEqual([]);
    });
  });
});
