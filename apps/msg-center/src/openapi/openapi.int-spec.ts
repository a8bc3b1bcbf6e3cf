import {
  createTestDatabase,
  deleteRedisKeys,
  insertUser,
  runClientGenerator,
  TestDatabase,
} from '@voltdepot/server-testing';
import request from 'supertest';
import type { MsgCenterConfig } from '../app.config';
import {
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  testNamespace,
  tokenFor,
} from '../fixtures/msg-center.fixtures';
import { DocSchema, schemaViolations } from '../fixtures/openapi-validate';

type DocOperation = {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: DocSchema }[];
  requestBody?: { content: Record<string, { schema: DocSchema }> };
  responses: Record<string, { content?: Record<string, { schema: DocSchema }> }>;
};
type Document = {
  paths: Record<string, Record<string, DocOperation>>;
  components: { schemas: Record<string, DocSchema> };
};

/** Every row of the spec's "Message service" table (platform-and-messaging §7), as served. */
const SPEC_ROWS: [string, string][] = [
  ['get', '/ms/dictionaries/dict/tree'],
  ['get', '/ms/m1/msg/config/search'],
  ['get', '/ms/m1/msg/config'],
  ['get', '/ms/m1/msg/config/page/{page}/size/{size}'],
  ['post', '/ms/m1/msg/config'],
  ['put', '/ms/m1/msg/config/{id}'],
  ['delete', '/ms/m1/msg/config/{id}'],
  ['get', '/ms/m1/msg/template/page/{page}/size/{size}'],
  ['post', '/ms/m1/msg/template'],
  ['put', '/ms/m1/msg/template/{id}'],
  ['delete', '/ms/m1/msg/template/{id}'],
  ['get', '/ms/m1/msg/template/group/{id}'],
  ['get', '/ms/prometheus/targets'],
  ['get', '/ms/m1/msg/receiver/role'],
  ['get', '/ms/m1/msg/receiver/user'],
  ['get', '/ms/m1/msg/group/page/{page}/size/{size}'],
  ['post', '/ms/m1/msg/group'],
  ['put', '/ms/m1/msg/group/{id}'],
  ['delete', '/ms/m1/msg/group/{id}'],
  ['get', '/ms/m1/msg/group/search'],
  ['get', '/ms/m1/msg/event/page/{page}/size/{size}'],
  ['get', '/ms/m1/msg/send_log/page/{page}/size/{size}'],
  ['get', '/ms/m1/msg/alerts/page/{page}/size/{size}'],
  ['post', '/ms/m1/msg/alerts'],
  ['put', '/ms/m1/msg/alerts/{id}'],
  ['delete', '/ms/m1/msg/alerts/{id}'],
  ['get', '/ms/m1/msg/inbox/page/{page}/size/{size}'],
  ['post', '/ms/m1/msg/inbox/read'],
  ['post', '/ms/m1/msg/inbox/del'],
  ['get', '/ms/m1/msg/inbox/unread'],
];

describe('OpenAPI of the message service (/ms/docs-json)', () => {
  let db: TestDatabase;
  let ns: string;
  let config: MsgCenterConfig;
  let service: RunningMsgCenter;
  let doc: Document;
  let token: string;
  let user: { id: number; username: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    ns = testNamespace();
    config = msgTestConfig(db, ns);
    service = await startMsgCenter(config);
    user = await insertUser(db.dataSource, ['admin']);
    token = await tokenFor(config, user);
    doc = (await request(service.app.getHttpServer()).get('/ms/docs-json').expect(200)).body as Document;
  });

  afterAll(async () => {
    await service?.close();
    await deleteRedisKeys(config.REDIS_URL, ns);
    await db?.drop();
  });

  const operation = (method: string, path: string): DocOperation => {
    const found = doc.paths[path]?.[method];
    if (found === undefined) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    return found;
  };
  const successSchema = (op: DocOperation): DocSchema | undefined => {
    const code = Object.keys(op.responses).find((c) => /^2\d\d$/.test(c));
    return code === undefined ? undefined : op.responses[code].content?.['application/json']?.schema;
  };
  /** An authorised request by method name (get, post, put, delete). */
  const send = (method: string, path: string): request.Test => {
    const http = request(service.app.getHttpServer()) as unknown as Record<
      string,
      (p: string) => request.Test
    >;
    return http[method](path).set('Authorization', `Bearer ${token}`);
  };
  const resolveRef = (schema: DocSchema | undefined): DocSchema | undefined =>
    schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

  it('is served without a token, with the UI at /ms/docs', async () => {
    const ui = await request(service.app.getHttpServer()).get('/ms/docs').expect(200);
    expect(ui.text).toContain('swagger');
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/ms/'))).toBe(true);
  });

  it.each(SPEC_ROWS)('documents %s %s with its answer, errors, parameters and body', (method, path) => {
    const op = operation(method, path);
    expect(successSchema(op)).toBeDefined();
    expect(op.responses['401']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ErrorBody',
    });
    const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    expect(pathParams.sort()).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
    if (method === 'post' || method === 'put') {
      if (!path.endsWith('/inbox/read/all'))
        expect(op.requestBody?.content['application/json']?.schema).toBeDefined();
    }
    if (path.includes('/page/{page}/size/{size}')) {
      const page = resolveRef(successSchema(op));
      expect(page?.required).toEqual(['list', 'total']);
      expect(page?.properties?.['list']?.type).toBe('array');
    }
  });

  it('documents the query parameters the spec names (job, start and end, the template search form)', () => {
    const query = (method: string, path: string) =>
      (operation(method, path).parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(query('get', '/ms/prometheus/targets')).toEqual(['job']);
    expect(query('get', '/ms/m1/msg/inbox/page/{page}/size/{size}')).toEqual(['start', 'end']);
    expect(query('get', '/ms/m1/msg/template/page/{page}/size/{size}')).toEqual(
      expect.arrayContaining(['configName', 'templateName', 'type']),
    );
    const body = operation('post', '/ms/m1/msg/template').requestBody!.content['application/json'].schema;
    expect(body.required).toEqual(['configId', 'templateName', 'type']);
  });

  it('real answers of every operation are what the document says (strict: no undocumented field)', async () => {
    const call = async (method: string, path: string, concrete: string, body?: unknown) => {
      const op = operation(method, path);
      let req = send(method, concrete);
      if (body !== undefined) req = req.send(body as object);
      const res = await req;
      expect({ call: `${method} ${concrete}`, status: res.status }).toEqual({
        call: `${method} ${concrete}`,
        status: Number(Object.keys(op.responses).find((c) => /^2\d\d$/.test(c))),
      });
      const schema = successSchema(op)!;
      const value: unknown = res.type === 'application/json' ? res.body : JSON.parse(res.text);
      expect({
        call: `${method} ${concrete}`,
        problems: schemaViolations(value, schema, doc.components.schemas),
      }).toEqual({
        call: `${method} ${concrete}`,
        problems: [],
      });
      return value as Record<string, unknown>;
    };
    const m = '/ms/m1/msg';

    const config = await call('post', `${m}/config`, `${m}/config`, {
      configName: 'site',
      fullName: 'In-site',
      channel: 'DDTALK',
      settings: { secret: 'secret' },
    });
    const configId = config['id'] as number;
    await call('put', `${m}/config/{id}`, `${m}/config/${configId}`, {
      configName: 'site',
      fullName: 'In-site messages',
      channel: 'DDTALK',
      settings: { secret: '******' },
    });
    await call('get', `${m}/config`, `${m}/config`);
    await call('get', `${m}/config/search`, `${m}/config/search?configName=site`);
    await call('get', `${m}/config/page/{page}/size/{size}`, `${m}/config/page/1/size/10`);

    const template = await call('post', `${m}/template`, `${m}/template`, {
      configId,
      templateName: '${name}',
      type: '0',
      content: '<p>${target}</p>',
      parameters: [{ key: 'sign', value: 'Voltdepot' }],
    });
    const templateId = template['id'] as number;
    await call('put', `${m}/template/{id}`, `${m}/template/${templateId}`, {
      configId,
      templateName: '${name}!',
      type: '1',
      parameters: { sign: 'Voltdepot' },
    });
    await call(
      'get',
      `${m}/template/page/{page}/size/{size}`,
      `${m}/template/page/1/size/10?templateName=name`,
    );
    await call('get', `${m}/template/group/{id}`, `${m}/template/group/${configId}`);

    const roles = (await call('get', `${m}/receiver/role`, `${m}/receiver/role`)) as unknown as {
      id: number;
    }[];
    await call('get', `${m}/receiver/user`, `${m}/receiver/user`);
    const group = await call('post', `${m}/group`, `${m}/group`, {
      name: 'ops',
      type: 'ROLE',
      memberIds: [roles[0].id],
    });
    const groupId = group['id'] as number;
    await call('put', `${m}/group/{id}`, `${m}/group/${groupId}`, {
      name: 'ops',
      type: 'USER',
      memberIds: [user.id],
    });
    await call('get', `${m}/group/page/{page}/size/{size}`, `${m}/group/page/1/size/100`);
    await call('get', `${m}/group/search`, `${m}/group/search?type=USER`);

    const event = await call('post', `${m}/event`, `${m}/event`, {
      name: 'stops',
      eventType: 'transaction.stopped',
      templateId,
      groupId,
      channels: [4],
      frequency: 'HOURS',
    });
    await call('put', `${m}/event/{id}`, `${m}/event/${event['id']}`, {
      name: 'stops',
      eventType: 'pile.error',
    });
    await call('get', `${m}/event/page/{page}/size/{size}`, `${m}/event/page/1/size/10`);

    const alert = await call('post', `${m}/alerts`, `${m}/alerts`, {
      name: 'api',
      alertGroup: 'HTTP',
      jobType: 'HTTP',
      target: 'http://127.0.0.1:9/health',
      expression: 'LE',
      threshold: 0,
      groupId,
      channels: [4],
    });
    await db.dataSource.query(
      `UPDATE msg_alert SET status = 'DOWN', last_value = 0, last_checked_at = now() WHERE id = $1`,
      [alert['id']],
    );
    await call('put', `${m}/alerts/{id}`, `${m}/alerts/${alert['id']}`, {
      name: 'api',
      alertGroup: 'HTTP',
      jobType: 'HTTP',
      target: 'http://127.0.0.1:9/health',
      threshold: 0.5,
    });
    await call('get', `${m}/alerts/page/{page}/size/{size}`, `${m}/alerts/page/1/size/10`);
    await call('get', '/ms/prometheus/targets', '/ms/prometheus/targets?job=HTTP');
    await call('get', `${m}/prometheus/targets`, `${m}/prometheus/targets`);
    await call('get', '/ms/dictionaries/dict/tree', '/ms/dictionaries/dict/tree?code=message_type');
    await call('get', `${m}/dictionaries/dict/tree`, `${m}/dictionaries/dict/tree`);

    await db.dataSource.query(
      `INSERT INTO msg_send_log (job_id, event_key, rule_kind, rule_id, channel, receiver_user_id, receiver, title, content, status, attempts, error, sent_at)
       VALUES ('j1', 'e1', 'alert', $1, 4, $2, 'me', 't', 'c', 'SUCCESS', 1, NULL, now()),
              ('j2', 'e1', 'event', NULL, 1, NULL, 'robot', NULL, NULL, 'FAILED', 5, 'HTTP 500', NULL)`,
      [alert['id'], user.id],
    );
    await call('get', `${m}/send_log/page/{page}/size/{size}`, `${m}/send_log/page/1/size/10`);

    const [{ id: inboxId }] = await db.dataSource.query(
      `INSERT INTO msg_inbox (user_id, title, content, sender, dedupe_key) VALUES ($1, 'T', 'C', '系统', 'k1'), ($1, 'U', 'D', '系统', 'k2') RETURNING id::int AS id`,
      [user.id],
    );
    await call(
      'get',
      `${m}/inbox/page/{page}/size/{size}`,
      `${m}/inbox/page/1/size/10?start=2000-01-01 00:00:00`,
    );
    await call('get', `${m}/inbox/unread`, `${m}/inbox/unread`);
    await call('post', `${m}/inbox/read`, `${m}/inbox/read`, { ids: [inboxId] });
    await call('post', `${m}/inbox/read/all`, `${m}/inbox/read/all`);
    await call('post', `${m}/inbox/del`, `${m}/inbox/del`, [inboxId]);

    await call('delete', `${m}/alerts/{id}`, `${m}/alerts/${alert['id']}`);
    await call('delete', `${m}/event/{id}`, `${m}/event/${event['id']}`);
    await call('delete', `${m}/group/{id}`, `${m}/group/${groupId}`);
    await call('delete', `${m}/template/{id}`, `${m}/template/${templateId}`);
    await call('delete', `${m}/config/{id}`, `${m}/config/${configId}`);
  });

  it.each([
    ['delete', '/ms/m1/msg/template/{id}', '/ms/m1/msg/template/999999', 404],
    ['get', '/ms/m1/msg/config/page/{page}/size/{size}', '/ms/m1/msg/config/page/0/size/10', 400],
  ])('error answers are the documented ErrorBody (%s %s)', async (method, path, concrete, status) => {
    const op = operation(method, path);
    const res = await send(method, concrete).expect(status);
    const schema = op.responses[String(status)].content!['application/json'].schema;
    expect(schemaViolations(res.body, schema, doc.components.schemas)).toEqual([]);
  });

  it('is not served when OPENAPI_DOCS=false', async () => {
    const quiet = await startMsgCenter({ ...config, OPENAPI_DOCS: false });
    try {
      await request(quiet.app.getHttpServer()).get('/ms/docs-json').expect(404);
    } finally {
      await quiet.close();
    }
  });

  it("the console's generated msg-center client is up to date with this document", async () => {
    const { written, output } = await runClientGenerator(
      doc,
      'msg-center',
      'MSG_WRITE_CLIENT',
      'apps/msg-center/src/openapi/openapi.int-spec.ts',
    );
    expect(output).toContain(written ? 'msg-center.generated.ts' : 'msg-center client is up to date');
  }, 60_000);
});
