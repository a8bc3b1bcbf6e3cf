import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  createTestDatabase,
  eventually,
  freePort,
  securityHeadersOf,
  SERVICE_SECURITY_HEADERS,
  spawnTs,
  TestDatabase,
  TsProcess,
} from '@voltdepot/server-testing';
import type { MsgCenterConfig } from '../app.config';
import { coreImports } from '../app.module';
import { msgTestConfig, TEST_JWT_SECRET, testNamespace } from '../fixtures/msg-center.fixtures';
import { ProviderServer, startDingTalkRobot } from '../fixtures/provider-servers';
import { MessageDispatcher } from './message-dispatcher';

const WORKER = 'apps/msg-center/src/worker.main.ts';

describe('worker killed mid-job (SIGKILL)', () => {
  let db: TestDatabase;
  let ns: string;
  let config: MsgCenterConfig;
  let producer: INestApplicationContext;
  let robot: ProviderServer;
  const workers: TsProcess[] = [];

  const startWorker = async (port?: number) => {
    const worker = spawnTs(WORKER, {
      DATABASE_URL: db.url,
      REDIS_URL: config.REDIS_URL,
      JWT_SECRET: TEST_JWT_SECRET,
      MSG_QUEUE_PREFIX: config.MSG_QUEUE_PREFIX,
      STOMP_FANOUT_CHANNEL: config.STOMP_FANOUT_CHANNEL,
      BUS_PREFIX: ns,
      LOG_LEVEL: 'info',
      MSG_WORKER_CONCURRENCY: '1',
      MSG_JOB_LOCK_MS: '1000',
      MSG_JOB_BACKOFF_MS: '50',
      MSG_ALERTS_ENABLED: 'false',
      MSG_WORKER_PORT: String(port ?? (await freePort())),
    });
    workers.push(worker);
    await worker.waitForLine(/worker ready/, 60_000);
    return worker;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    ns = testNamespace();
    config = msgTestConfig(db, ns);
    robot = await startDingTalkRobot('tok', 'SECret');
    await db.dataSource.query(
      `INSERT INTO msg_config (config_name, full_name, channel, provider, settings) VALUES ('ding', 'ding', 'DDTALK', 'TEXT', $1)`,
      [{ webhook: `${robot.url}/robot/send?access_token=tok`, secret: 'SECret' }],
    );
    @Module({ imports: coreImports(config, 'http') })
    class ProducerModule {}
    producer = await NestFactory.createApplicationContext(ProducerModule, { logger: false });
  });

  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await producer?.close();
    await robot?.close();
    await db?.drop();
  });

  const send = (n: number) =>
    producer.get(MessageDispatcher).dispatch({
      eventKey: `crash-${n}`,
      ruleKind: 'manual',
      ruleId: null,
      templateId: null,
      channels: [3],
      recipients: [],
      values: {},
      fallback: { title: `message ${n}`, content: `<p>body ${n}</p>` },
    });
  const delivered = () =>
    robot.accepted.map((r) => (r.body as { text: { content: string } }).text.content.split('\n')[0]).sort();

  it('resumes the interrupted job on another worker and sends every message exactly once', async () => {
    const first = await startWorker();
    await send(1);
    await send(2);
    await eventually(() => expect(delivered()).toEqual(['message 1', 'message 2']), 20_000);

    // The next request is held unanswered; the worker dies while waiting for it.
    const held = robot.holdNext();
    await send(3);
    await send(4);
    await send(5);
    await held;
    await first.kill('SIGKILL');
    expect(await first.exited).toBeNull();

    await startWorker();
    await eventually(
      () => expect(delivered()).toEqual(['message 1', 'message 2', 'message 3', 'message 4', 'message 5']),
      30_000,
    );
    // Nothing more arrives later (no duplicate from the stalled job).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(delivered()).toHaveLength(5);
    const logs = await db.dataSource.query(`SELECT status FROM msg_send_log ORDER BY id`);
    expect(logs.map((l: { status: string }) => l.status)).toEqual(Array(5).fill('SUCCESS'));
  });

  it('serves /health (its dependencies) and /metrics on MSG_WORKER_PORT, and no API', async () => {
    const port = await freePort();
    await startWorker(port);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect(securityHeadersOf(health.headers)).toEqual(SERVICE_SECURITY_HEADERS);
    const report = (await health.json()) as {
      service: string;
      dependencies: { name: string; status: string }[];
    };
    expect(report.service).toBe('msg-center-worker');
    expect(report.dependencies.map((d) => [d.name, d.status])).toEqual([
      ['postgres', 'up'],
      ['redis', 'up'],
      ['bus:redis', 'up'],
    ]);
    expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain(
      'process_cpu_seconds_total',
    );
    expect((await fetch(`http://127.0.0.1:${port}/ms/m1/msg/template/page/1/size/10`)).status).toBe(404);
  });
});
