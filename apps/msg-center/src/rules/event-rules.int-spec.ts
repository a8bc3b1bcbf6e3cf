import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { busConfigFromService, createEnvelope, createEventBus, EventBus } from '@voltdepot/server-messaging';
import { createTestDatabase, eventually, insertUser, TestDatabase } from '@voltdepot/server-testing';
import {
  PileError,
  PileErrorCleared,
  TransactionStopped,
  TransactionStoppedV1,
} from '@voltdepot/shared-events';
import type { MsgCenterConfig } from '../app.config';
import {
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  testNamespace,
} from '../fixtures/msg-center.fixtures';
import { WorkerModule } from '../worker.module';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const stop = (pile: string, stopKind: 'normal' | 'abnormal'): TransactionStoppedV1 => ({
  chargePointId: pile,
  connectorId: 1,
  transactionId: 1,
  meterStopWh: 1000,
  timestamp: '2025-06-01T00:00:00.000Z',
  reason: 'PowerLoss',
  stopKind,
  quarantined: false,
});

describe('event rules: bus events -> messages (throttled per rule and target)', () => {
  let db: TestDatabase;
  let config: MsgCenterConfig;
  let service: RunningMsgCenter;
  let worker: INestApplicationContext;
  let producer: EventBus;
  let user: { id: number };

  beforeAll(async () => {
    db = await createTestDatabase();
    const ns = testNamespace();
    config = msgTestConfig(db, ns, { BUS_PREFIX: ns });
    // fleet_manager does not hold msg:stopNotice: every inbox row here comes from the rules.
    user = await insertUser(db.dataSource, ['fleet_manager']);
    const [group] = await db.dataSource.query(
      `INSERT INTO msg_group (name, type, member_ids) VALUES ('g', 'USER', $1) RETURNING id::int AS id`,
      [[user.id]],
    );
    const [cfg] = await db.dataSource.query(
      `INSERT INTO msg_config (config_name, full_name, channel) VALUES ('site', 'In-site', 'WEBSOCKET') RETURNING id::int AS id`,
    );
    const [template] = await db.dataSource.query(
      `INSERT INTO msg_template (config_id, template_name, content) VALUES ($1, '\${pile}告警', '<p>\${pile} \${gun}号枪 \${reason}</p>') RETURNING id::int AS id`,
      [cfg.id],
    );
    await db.dataSource.query(
      `INSERT INTO msg_event (name, event_type, condition, template_id, group_id, channels, level, frequency) VALUES
         ('abnormal stops', 'transaction.stopped', '{"stopKind": "abnormal"}', $1, $2, '{4}', 'IMPORTANT', 'FIVE_MINUTES'),
         ('pile errors', 'pile.error', '{}', NULL, $2, '{4}', 'EMERGENCY', NULL),
         ('errors cleared', 'pile.error-cleared', '{"errorCode": "GroundFailure"}', NULL, $2, '{4}', 'PROMPT', NULL)`,
      [template.id, group.id],
    );
    service = await startMsgCenter(config);
    worker = await NestFactory.createApplicationContext(WorkerModule.register(config), { logger: false });
    producer = createEventBus(busConfigFromService(config, 'test-producer'));
  });

  afterAll(async () => {
    await producer?.close();
    await worker?.close();
    await service?.close();
    await db?.drop();
  });

  const inbox = async () =>
    (
      (await db.dataSource.query(`SELECT title, content FROM msg_inbox WHERE user_id = $1 ORDER BY id`, [
        user.id,
      ])) as {
        title: string;
        content: string;
      }[]
    ).map((r) => `${r.title}|${r.content}`);

  it("sends matching events to the rule's group, once per window per pile/gun, and ignores non-matching ones", async () => {
    const first = createEnvelope(TransactionStopped, 'CP-A', stop('CP-A', 'abnormal'));
    await producer.publish(first);
    await eventually(async () => expect(await inbox()).toEqual(['CP-A告警|<p>CP-A 1号枪 充电桩断电</p>']));

    await producer.publish(first); // redelivery
    await producer.publish(createEnvelope(TransactionStopped, 'CP-A', stop('CP-A', 'abnormal'))); // same window
    await producer.publish(createEnvelope(TransactionStopped, 'CP-A', stop('CP-A', 'normal'))); // no match
    await producer.publish(createEnvelope(TransactionStopped, 'CP-B', stop('CP-B', 'abnormal'))); // other target
    await eventually(async () =>
      expect(await inbox()).toEqual([
        'CP-A告警|<p>CP-A 1号枪 充电桩断电</p>',
        'CP-B告警|<p>CP-B 1号枪 充电桩断电</p>',
      ]),
    );
    await sleep(800);
    expect(await inbox()).toHaveLength(2);
    const logs = await db.dataSource.query(`SELECT rule_kind, status FROM msg_send_log`);
    expect(logs).toEqual([
      { rule_kind: 'event', status: 'SUCCESS' },
      { rule_kind: 'event', status: 'SUCCESS' },
    ]);
  });

  it('sends pile errors with the fallback text when the rule has no template', async () => {
    await producer.publish(
      createEnvelope(PileError, 'CP-C', {
        chargePointId: 'CP-C',
        connectorId: 2,
        status: 'Faulted',
        errorCode: 'GroundFailure',
        timestamp: '2025-06-01T00:00:00.000Z',
      }),
    );
    await eventually(async () =>
      expect((await inbox())[2]).toMatch(/^pile errors\|pile: CP-C\n.*errorCode: GroundFailure/s),
    );
  });

  it('sends the end of a pile error to a rule on pile.error-cleared that matches its error code', async () => {
    const cleared = (errorCode: string) =>
      createEnvelope(PileErrorCleared, 'CP-D', {
        chargePointId: 'CP-D',
        connectorId: 1,
        errorCode,
        since: '2025-06-01T00:00:00.000Z',
        clearedAt: '2025-06-01T01:00:00.000Z',
        status: 'Available',
        currentErrorCode: 'NoError',
      });
    await producer.publish(cleared('OverVoltage')); // the rule wants GroundFailure only
    await producer.publish(cleared('GroundFailure'));
    await eventually(async () =>
      expect((await inbox())[3]).toMatch(/^errors cleared\|pile: CP-D\n.*errorCode: GroundFailure/s),
    );
    await sleep(500);
    expect(await inbox()).toHaveLength(4);
  });
});
