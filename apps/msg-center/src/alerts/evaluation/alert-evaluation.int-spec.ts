import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  createTestDatabase,
  deleteRedisKeys,
  eventually,
  insertUser,
  TestDatabase,
  testEnv,
} from '@voltdepot/server-testing';
import { Kafka, logLevel } from 'kafkajs';
import request from 'supertest';
import type { MsgCenterConfig } from '../../app.config';
import {
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  testNamespace,
  tokenFor,
} from '../../fixtures/msg-center.fixtures';
import { MessageDispatcher } from '../../jobs/message-dispatcher';
import { WorkerModule } from '../../worker.module';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const env = testEnv();
const KAFKA_BROKERS = env.kafkaBrokers ?? ['127.0.0.1:19092'];
const REDIS_HOST_PORT = (() => {
  const url = new URL(env.redisUrl);
  return `${url.hostname}:${url.port || 6379}`;
})();

type AlertState = { status: string; lastValue: number | null; lastCheckedAt: Date | null };

/** A health endpoint that can be taken down and brought back on the same port. */
class HealthServer {
  private server: Server | undefined;
  port = 0;

  async up(): Promise<void> {
    this.server = createServer((req, res) => {
      res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('alert evaluators (BullMQ schedule in the worker; real Redis, Kafka, HTTP and TCP targets)', () => {
  let db: TestDatabase;
  let ns: string;
  let config: MsgCenterConfig;
  let service: RunningMsgCenter;
  let worker: INestApplicationContext;
  let prometheus: Server;
  let user: { id: number; username: string };
  let groupId: number;
  let templateId: number;
  const health = new HealthServer();
  let kafka: Kafka;
  const topic = `alerts-lag-${Date.now()}`;
  const consumerGroup = `alerts-group-${Date.now()}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    ns = testNamespace();
    // A Prometheus HTTP API (instant queries and active targets) for `promql:` alerts and discovery.
    prometheus = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/api/v1/query' && url.searchParams.get('query') === 'node_load_percent') {
        res.end(
          JSON.stringify({
            status: 'success',
            data: {
              resultType: 'vector',
              result: [
                { metric: { instance: 'busy:9100', job: 'node' }, value: [1, '95'] },
                { metric: { instance: 'idle:9100', job: 'node' }, value: [1, '10'] },
              ],
            },
          }),
        );
        return;
      }
      if (url.pathname === '/api/v1/targets') {
        res.end(
          JSON.stringify({
            status: 'success',
            data: {
              activeTargets: [
                {
                  labels: { job: 'node-exporter', instance: '10.1.1.1:9100' },
                  health: 'up',
                  scrapeUrl: 'http://10.1.1.1:9100/metrics',
                },
                { labels: { job: 'redis', instance: '10.1.1.2:9121' }, health: 'down' },
              ],
            },
          }),
        );
        return;
      }
      res.statusCode = 400;
      res.end(JSON.stringify({ status: 'error', error: 'unknown query' }));
    });
    await new Promise<void>((resolve) => prometheus.listen(0, '127.0.0.1', resolve));
    config = msgTestConfig(db, ns, {
      MSG_ALERTS_ENABLED: 'true',
      KAFKA_BROKERS: KAFKA_BROKERS.join(','),
      MSG_ALERT_INTERVAL_MS: '250',
      MSG_ALERT_TIMEOUT_MS: '1500',
      MSG_ALERT_CPU_SAMPLE_MS: '100',
      MSG_PROMETHEUS_URL: `http://127.0.0.1:${(prometheus.address() as AddressInfo).port}`,
    });
    user = await insertUser(db.dataSource, ['fleet_manager']);
    [{ id: groupId }] = await db.dataSource.query(
      `INSERT INTO msg_group (name, type, member_ids) VALUES ('on call', 'USER', $1) RETURNING id::int AS id`,
      [[user.id]],
    );
    const [cfg] = await db.dataSource.query(
      `INSERT INTO msg_config (config_name, full_name, channel) VALUES ('site', 'In-site', 'WEBSOCKET') RETURNING id::int AS id`,
    );
    [{ id: templateId }] = await db.dataSource.query(
      `INSERT INTO msg_template (config_id, template_name, content) VALUES ($1, '\${name}', '<p>\${target}: \${value} \${expression} \${threshold} (\${status})</p>') RETURNING id::int AS id`,
      [cfg.id],
    );
    await health.up();

    kafka = new Kafka({ clientId: ns, brokers: KAFKA_BROKERS, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: Array.from({ length: 10 }, (_, i) => ({ value: `m${i}` })) });
    await producer.disconnect();
    await admin.setOffsets({ groupId: consumerGroup, topic, partitions: [{ partition: 0, offset: '3' }] });
    await admin.disconnect();

    service = await startMsgCenter(config);
    worker = await NestFactory.createApplicationContext(WorkerModule.register(config), { logger: false });
  });

  afterAll(async () => {
    await worker?.close();
    await service?.close();
    await health.down();
    await new Promise((resolve) => prometheus?.close(resolve));
    const admin = kafka?.admin();
    if (admin) {
      await admin.connect();
      await admin.deleteGroups([consumerGroup]).catch(() => undefined);
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
    await deleteRedisKeys(config.REDIS_URL, ns);
    await db?.drop();
  });

  async function addAlert(fields: {
    name: string;
    jobType: string;
    target: string;
    expression: 'GE' | 'LE';
    threshold: number;
    frequency?: string | null;
    templateId?: number | null;
  }): Promise<number> {
    const [row] = await db.dataSource.query(
      `INSERT INTO msg_alert (name, alert_group, job_type, target, expression, threshold, template_id, group_id, channels, level, frequency)
       VALUES ($1, $2, $2, $3, $4, $5, $6, $7, '{4}', 'IMPORTANT', $8) RETURNING id::int AS id`,
      [
        fields.name,
        fields.jobType,
        fields.target,
        fields.expression,
        fields.threshold,
        fields.templateId ?? null,
        groupId,
        fields.frequency ?? null,
      ],
    );
    return row.id;
  }

  const state = async (id: number): Promise<AlertState> =>
    (
      await db.dataSource.query(
        `SELECT status, last_value AS "lastValue", last_checked_at AS "lastCheckedAt" FROM msg_alert WHERE id = $1`,
        [id],
      )
    )[0];

  /** Waits until the alert has been checked `rounds` more times (its check time moved on). */
  async function checkedAgain(id: number, rounds = 1): Promise<AlertState> {
    let current = await state(id);
    for (let i = 0; i < rounds; i++) {
      const before = current.lastCheckedAt?.getTime() ?? 0;
      current = await eventually(async () => {
        const s = await state(id);
        expect(s.lastCheckedAt?.getTime() ?? 0).toBeGreaterThan(before);
        return s;
      }, 10_000);
    }
    return current;
  }

  const messages = async (alertId: number) =>
    (await db.dataSource.query(
      `SELECT i.title, i.content, l.status AS "logStatus", l.rule_kind AS "ruleKind"
         FROM msg_send_log l JOIN msg_inbox i ON i.dedupe_key = l.job_id
        WHERE l.rule_kind = 'alert' AND l.rule_id = $1 AND i.user_id = $2 ORDER BY l.id`,
      [alertId, user.id],
    )) as { title: string; content: string; logStatus: string; ruleKind: string }[];

  it('HTTP: notifies once when the health check goes down, again after it recovered and fell again', async () => {
    const id = await addAlert({
      name: 'api health',
      jobType: 'HTTP',
      target: `http://127.0.0.1:${health.port}/health`,
      expression: 'LE',
      threshold: 0,
    });
    expect(await checkedAgain(id)).toMatchObject({ status: 'UP', lastValue: 1 });
    await sleep(300);
    expect(await messages(id)).toEqual([]);

    await health.down();
    // The send log row exists (PENDING) a moment before the delivery marks it SUCCESS: wait for both.
    await eventually(async () => {
      const list = await messages(id);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ logStatus: 'SUCCESS' });
    }, 10_000);
    const [down] = await messages(id);
    expect(down).toMatchObject({ title: '[IMPORTANT] api health', logStatus: 'SUCCESS', ruleKind: 'alert' });
    expect(down.content).toContain(`target: http://127.0.0.1:${health.port}/health`);
    expect(down.content).toContain('value: 0 (≤ 0)');
    expect(down.content).toContain('status: DOWN');
    expect(down.content).toMatch(/error: connect ECONNREFUSED 127\.0\.0\.1:\d+/);
    expect(await checkedAgain(id, 3)).toMatchObject({ status: 'DOWN', lastValue: 0 });
    expect(await messages(id)).toHaveLength(1); // still down: no repeat without a frequency

    await health.up();
    expect(await checkedAgain(id, 2)).toMatchObject({ status: 'UP', lastValue: 1 });
    await health.down();
    await eventually(async () => expect(await messages(id)).toHaveLength(2), 10_000);
    await health.up();
  });

  it('CONNECTION: a refused TCP port notifies at most once per frequency window', async () => {
    const closed: TcpServer = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const id = await addAlert({
      name: 'db port',
      jobType: 'CONNECTION',
      target: `127.0.0.1:${port}`,
      expression: 'LE',
      threshold: 0,
      frequency: 'FIVE_MINUTES',
    });
    await eventually(async () => expect(await messages(id)).toHaveLength(1), 10_000);
    expect(await checkedAgain(id, 4)).toMatchObject({ status: 'DOWN', lastValue: 0 });
    expect(await messages(id)).toHaveLength(1);

    // A listening port is up: value 1, nothing sent.
    const open = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
    const upId = await addAlert({
      name: 'open port',
      jobType: 'CONNECTION',
      target: `tcp://127.0.0.1:${(open.address() as AddressInfo).port}`,
      expression: 'LE',
      threshold: 0,
      frequency: 'FIVE_MINUTES',
    });
    expect(await checkedAgain(upId, 2)).toMatchObject({ status: 'UP', lastValue: 1 });
    expect(await messages(upId)).toEqual([]);
    await new Promise((resolve) => open.close(resolve));
  });

  it('records the check before it sends: the alert already shows the status and value its message reports', async () => {
    const closed: TcpServer = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // The worker's own dispatcher, watched (not replaced): each send for this alert first reads the
    // alert's row as a recipient opening it at that moment would see it.
    const dispatcher = worker.get(MessageDispatcher, { strict: false });
    const dispatch = dispatcher.dispatch.bind(dispatcher);
    const seenAtSend: AlertState[] = [];
    let id = -1;
    const watch = jest.spyOn(dispatcher, 'dispatch').mockImplementation(async (request) => {
      if (request.ruleKind === 'alert' && request.ruleId === id) seenAtSend.push(await state(id));
      return dispatch(request);
    });
    try {
      id = await addAlert({
        name: 'order probe',
        jobType: 'CONNECTION',
        target: `127.0.0.1:${port}`,
        expression: 'LE',
        threshold: 0,
        frequency: 'FIVE_MINUTES',
      });
      await eventually(async () => expect(seenAtSend.length).toBeGreaterThanOrEqual(1), 10_000);
      // A new alert's status is DEFAULT until its first check is recorded; that check is what fired.
      expect(seenAtSend[0]).toMatchObject({ status: 'DOWN', lastValue: 0 });
      expect(seenAtSend[0].lastCheckedAt).not.toBeNull();
      await eventually(async () => expect(await messages(id)).toHaveLength(1), 10_000);
    } finally {
      watch.mockRestore();
    }
  });

  it('REDIS: used memory over the threshold fires with the template; an unreachable Redis is DOWN', async () => {
    const memory = await addAlert({
      name: 'redis memory',
      jobType: 'REDIS',
      target: `redis://${REDIS_HOST_PORT}#used_memory`,
      expression: 'GE',
      threshold: 1024,
      frequency: 'HOURS',
      templateId,
    });
    const quiet = await addAlert({
      name: 'redis clients',
      jobType: 'REDIS',
      target: `${REDIS_HOST_PORT}#connected_clients`,
      expression: 'LE',
      threshold: 0,
      frequency: 'HOURS',
    });
    const gone = await addAlert({
      name: 'redis gone',
      jobType: 'REDIS',
      target: '127.0.0.1:1',
      expression: 'GE',
      threshold: 1,
      frequency: 'HOURS',
    });
    await eventually(async () => expect(await messages(memory)).toHaveLength(1), 10_000);
    const s = await state(memory);
    expect(s.status).toBe('EXCEPTION');
    expect(s.lastValue).toBeGreaterThan(1024);
    const [message] = await messages(memory);
    expect(message.title).toBe('redis memory');
    expect(message.content).toMatch(
      new RegExp(`^<p>redis://${REDIS_HOST_PORT}#used_memory: \\d+ ≥ 1024 \\(EXCEPTION\\)</p>$`),
    );

    expect(await checkedAgain(quiet, 2)).toMatchObject({ status: 'UP' });
    expect((await state(quiet)).lastValue).toBeGreaterThanOrEqual(1);
    expect(await messages(quiet)).toEqual([]);

    await eventually(async () => expect(await messages(gone)).toHaveLength(1), 10_000);
    expect(await state(gone)).toMatchObject({ status: 'DOWN', lastValue: null });
    expect((await messages(gone))[0].content).toContain('error: ');
  });

  it('KAFKA: consumer lag at or above N fires; once the group catches up it is UP again', async () => {
    const id = await addAlert({
      name: 'billing lag',
      jobType: 'KAFKA',
      target: `${consumerGroup}/${topic}`,
      expression: 'GE',
      threshold: 5,
      templateId,
    });
    await eventually(async () => expect(await messages(id)).toHaveLength(1), 15_000);
    expect(await state(id)).toMatchObject({ status: 'EXCEPTION', lastValue: 7 });
    expect((await messages(id))[0].content).toBe(`<p>${consumerGroup}/${topic}: 7 ≥ 5 (EXCEPTION)</p>`);

    const admin = kafka.admin();
    await admin.connect();
    await admin.setOffsets({ groupId: consumerGroup, topic, partitions: [{ partition: 0, offset: '10' }] });
    await admin.disconnect();
    await eventually(
      async () => expect(await state(id)).toMatchObject({ status: 'UP', lastValue: 0 }),
      15_000,
    );
    expect(await messages(id)).toHaveLength(1);

    // Explicit brokers in the target, over every topic the group committed.
    const all = await addAlert({
      name: 'billing lag, all topics',
      jobType: 'KAFKA',
      target: `kafka://${KAFKA_BROKERS.join(',')}/${consumerGroup}`,
      expression: 'GE',
      threshold: 1,
    });
    expect(await checkedAgain(all, 2)).toMatchObject({ status: 'UP', lastValue: 0 });
  });

  it("NODE: the worker host's memory and a service's own /metrics", async () => {
    const memory = await addAlert({
      name: 'host memory',
      jobType: 'NODE',
      target: 'local#memory',
      expression: 'GE',
      threshold: 0.01,
      frequency: 'DAY',
    });
    const rss = await addAlert({
      name: 'msg-center rss',
      jobType: 'NODE',
      target: `127.0.0.1:${service.port}#voltdepot_process_resident_memory_bytes`,
      expression: 'GE',
      threshold: 100 * 1024 ** 3,
      frequency: 'DAY',
    });
    const cpu = await addAlert({
      name: 'msg-center cpu',
      jobType: 'NODE',
      target: `http://127.0.0.1:${service.port}/metrics#cpu`,
      expression: 'LE',
      threshold: -1,
      frequency: 'DAY',
    });
    await eventually(async () => expect(await messages(memory)).toHaveLength(1), 10_000);
    const mem = await state(memory);
    expect(mem.status).toBe('EXCEPTION');
    expect(mem.lastValue).toBeGreaterThan(0.01);
    expect(mem.lastValue).toBeLessThanOrEqual(100);

    const r = await checkedAgain(rss, 2);
    expect(r.status).toBe('UP');
    expect(r.lastValue).toBeGreaterThan(10 * 1024 ** 2);
    const c = await checkedAgain(cpu, 2);
    expect(c.status).toBe('UP');
    expect(c.lastValue).toBeGreaterThanOrEqual(0);
    expect(await messages(rss)).toEqual([]);
    expect(await messages(cpu)).toEqual([]);
  });

  it('Prometheus: every series of a PromQL result is its own target', async () => {
    const id = await addAlert({
      name: 'node load',
      jobType: 'NODE',
      target: 'promql:node_load_percent',
      expression: 'GE',
      threshold: 90,
      frequency: 'HOURS',
      templateId,
    });
    await eventually(async () => expect(await messages(id)).toHaveLength(1), 10_000);
    expect(await checkedAgain(id, 2)).toMatchObject({ status: 'EXCEPTION', lastValue: 95 });
    expect((await messages(id)).map((m) => m.content)).toEqual(['<p>busy:9100: 95 ≥ 90 (EXCEPTION)</p>']);
  });

  it('GET /ms/prometheus/targets answers the platform, alert and Prometheus targets of a job', async () => {
    const admin = await insertUser(db.dataSource, ['admin']);
    const token = await tokenFor(config, admin);
    const get = (path: string) =>
      request(service.app.getHttpServer()).get(path).set('Authorization', `Bearer ${token}`).expect(200);

    const redis = (await get('/ms/prometheus/targets?job=REDIS')).body;
    expect(redis).toEqual(
      expect.arrayContaining([
        { targets: [REDIS_HOST_PORT], labels: { job: 'redis', source: 'platform', name: 'redis' } },
        {
          targets: [REDIS_HOST_PORT],
          labels: {
            job: 'redis',
            source: 'alert',
            alert: 'redis memory',
            alert_group: 'REDIS',
            level: 'IMPORTANT',
          },
        },
        {
          targets: ['10.1.1.2:9121'],
          labels: { job: 'redis', source: 'prometheus', health: 'down' },
        },
      ]),
    );
    expect(
      redis.find((g: { labels: { alert?: string } }) => g.labels.alert === 'redis gone').targets,
    ).toEqual(['127.0.0.1:1']);

    const node = (await get('/ms/prometheus/targets?job=node')).body;
    expect(node).toEqual([
      {
        targets: [`127.0.0.1:${service.port}`],
        labels: {
          job: 'node',
          source: 'alert',
          alert: 'msg-center rss',
          alert_group: 'NODE',
          level: 'IMPORTANT',
          __scheme__: 'http',
          __metrics_path__: '/metrics',
        },
      },
      {
        targets: [`127.0.0.1:${service.port}`],
        labels: {
          job: 'node',
          source: 'alert',
          alert: 'msg-center cpu',
          alert_group: 'NODE',
          level: 'IMPORTANT',
          __scheme__: 'http',
          __metrics_path__: '/metrics',
        },
      },
      {
        targets: ['10.1.1.1:9100'],
        labels: {
          job: 'node-exporter',
          source: 'prometheus',
          health: 'up',
          scrape_url: 'http://10.1.1.1:9100/metrics',
        },
      },
    ]);

    const kafkaTargets = (await get('/ms/prometheus/targets?job=KAFKA')).body;
    expect(kafkaTargets).toContainEqual({
      targets: KAFKA_BROKERS,
      labels: { job: 'kafka', source: 'platform', name: 'kafka' },
    });
    expect(kafkaTargets).toContainEqual(
      expect.objectContaining({
        targets: KAFKA_BROKERS,
        labels: expect.objectContaining({ alert: 'billing lag', consumer_group: consumerGroup }),
      }),
    );
    // The same answer under the message service base, where earlier clients called it.
    expect((await get('/ms/m1/msg/prometheus/targets?job=KAFKA')).body).toEqual(kafkaTargets);
  });
});
