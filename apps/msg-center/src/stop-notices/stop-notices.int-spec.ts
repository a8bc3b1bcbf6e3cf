import { busConfigFromService, createEnvelope, createEventBus, EventBus } from '@voltdepot/server-messaging';
import { createTestDatabase, eventually, insertUser, TestDatabase, testEnv } from '@voltdepot/server-testing';
import { STOMP_INBOX_TOPIC, STOMP_STOP_NOTICE_TOPIC } from '@voltdepot/shared-contracts';
import { TransactionStopped, TransactionStoppedV1 } from '@voltdepot/shared-events';
import type { MsgCenterConfig } from '../app.config';
import { STOP_NOTICES_GROUP } from './stop-notice.listener';
import {
  connectStomp,
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  testNamespace,
  TestStompClient,
  tokenFor,
} from '../fixtures/msg-center.fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const stopped = (overrides: Partial<TransactionStoppedV1> = {}): TransactionStoppedV1 => ({
  chargePointId: 'CP-9',
  connectorId: 1,
  transactionId: 4242,
  meterStartWh: 0,
  meterStopWh: 20_000,
  energyWh: 20_000,
  timestamp: '2025-06-01T00:00:00.000Z',
  reason: 'EmergencyStop',
  stopKind: 'abnormal',
  quarantined: false,
  ...overrides,
});

const drivers: ('redis' | 'kafka')[] = testEnv().kafkaBrokers ? ['redis', 'kafka'] : ['redis'];

describe.each(drivers)('realtime stop notices from the bus (%s driver)', (driver) => {
  let db: TestDatabase;
  let config: MsgCenterConfig;
  let service: RunningMsgCenter;
  let producer: EventBus;
  let receiver: TestStompClient;
  let bystander: TestStompClient;
  let receiverUser: { id: number; username: string };
  let bystanderUser: { id: number; username: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    const ns = testNamespace();
    config = msgTestConfig(db, ns, {
      BUS: driver,
      BUS_PREFIX: ns,
      ...(driver === 'kafka' ? { KAFKA_BROKERS: testEnv().kafkaBrokers!.join(',') } : {}),
    });
    service = await startMsgCenter(config);
    producer = createEventBus(busConfigFromService(config, 'test-producer'));
    receiverUser = await insertUser(db.dataSource, ['operator']); // operator holds msg:stopNotice
    bystanderUser = await insertUser(db.dataSource, ['maintainer']); // maintainer does not
    const topics = [STOMP_STOP_NOTICE_TOPIC, STOMP_INBOX_TOPIC];
    receiver = await connectStomp(service.wsUrl, { passcode: await tokenFor(config, receiverUser) }, topics);
    bystander = await connectStomp(
      service.wsUrl,
      { passcode: await tokenFor(config, bystanderUser) },
      topics,
    );
    if (driver === 'kafka') {
      // Kafka consumers join their group asynchronously: wait for a warm-up event to come through.
      await producer.publish(createEnvelope(TransactionStopped, 'warm-up', stopped({ stopKind: 'normal' })));
      await eventually(
        () => expect(receiver.received(STOMP_STOP_NOTICE_TOPIC).length).toBeGreaterThan(0),
        60_000,
      );
      receiver.messages.clear();
      bystander.messages.clear();
    }
  });

  afterAll(async () => {
    await receiver?.close();
    await bystander?.close();
    await producer?.close();
    await service?.close();
    await db?.drop();
  });

  const inboxRows = async (userId: number) =>
    (await db.dataSource.query(`SELECT title, content FROM msg_inbox WHERE user_id = $1`, [userId])) as {
      title: string;
      content: string;
    }[];

  it('pushes an abnormal stop to receivers within 1 s, writes their inbox row, and nothing to others', async () => {
    const envelope = createEnvelope(TransactionStopped, 'CP-9', stopped());
    const publishedAt = Date.now();
    await producer.publish(envelope);
    const expected = {
      type: 2,
      msg: '充电桩CP-9的1号枪充电异常停止，原因：紧急停止，充电量20.00千瓦时，交易号4242',
      date: '2025-06-01 08:00:00',
    };
    await eventually(() => expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([expected]), 1000, 10);
    expect(Date.now() - publishedAt).toBeLessThan(1000);
    await eventually(() =>
      expect(receiver.received(STOMP_INBOX_TOPIC)).toEqual([
        {
          handler: 'inbox.new',
          command: 'new',
          data: expect.objectContaining({ title: '充电异常停止告警', content: expected.msg, isRead: false }),
        },
      ]),
    );
    expect(await inboxRows(receiverUser.id)).toEqual([{ title: '充电异常停止告警', content: expected.msg }]);

    // Redelivery of the same event: no second inbox row, no second push.
    await producer.publish(envelope);
    await sleep(500);
    expect(await inboxRows(receiverUser.id)).toHaveLength(1);
    expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toHaveLength(1);

    expect(bystander.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([]);
    expect(bystander.received(STOMP_INBOX_TOPIC)).toEqual([]);
    expect(await inboxRows(bystanderUser.id)).toEqual([]);
  });

  it('pushes a normal stop as type 1 without an inbox row', async () => {
    receiver.messages.clear();
    await producer.publish(
      createEnvelope(TransactionStopped, 'CP-9', stopped({ stopKind: 'normal', reason: 'EVDisconnected' })),
    );
    await eventually(() =>
      expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([
        expect.objectContaining({ type: 1, msg: expect.stringContaining('充电正常结束') }),
      ]),
    );
    await sleep(200);
    expect(await inboxRows(receiverUser.id)).toHaveLength(1);
  });

  it('after a process killed between the notice and the inbox rows, redelivery stores the rows and pushes no second notice', async () => {
    receiver.messages.clear();
    const envelope = createEnvelope(
      TransactionStopped,
      'CP-9',
      stopped({ transactionId: 4343, reason: 'PowerLoss' }),
    );
    // The notice step committed (and pushed) before the kill; the inbox step never ran.
    await db.dataSource.query(`INSERT INTO processed_event (consumer_group, event_id) VALUES ($1, $2)`, [
      STOP_NOTICES_GROUP,
      envelope.eventId,
    ]);
    await producer.publish(envelope);
    await eventually(() =>
      expect(receiver.received(STOMP_INBOX_TOPIC)).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({ content: expect.stringContaining('4343') }),
        }),
      ]),
    );
    expect(await inboxRows(receiverUser.id)).toHaveLength(2);
    await sleep(300);
    expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([]);

    // And once more: both steps are marked, nothing happens.
    await producer.publish(envelope);
    await sleep(500);
    expect(await inboxRows(receiverUser.id)).toHaveLength(2);
    expect(receiver.received(STOMP_INBOX_TOPIC)).toHaveLength(1);
  });
});
