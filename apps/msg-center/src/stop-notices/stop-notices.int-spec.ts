import { busConfigFromService, createEnvelope, createEventBus, EventBus } from '@voltdepot/server-messaging';
import { createTestDatabase, eventually, insertUser, TestDatabase, testEnv } from '@voltdepot/server-testing';
import { STOMP_INBOX_TOPIC, STOMP_STOP_NOTICE_TOPIC } from '@voltdepot/shared-contracts';
import {
  OrderAmended,
  OrderAmendedV1,
  OrderSettled,
  OrderSettledLegacy,
  OrderSettledV2,
  TransactionStopped,
  TransactionStoppedV1,
} from '@voltdepot/shared-events';
import type { MsgCenterConfig } from '../app.config';
import { STOP_NOTICES_GROUP } from './stop-notice.listener';
import { StopNoticeRepository } from './stop-notice.repository';
import { StopNoticeRetentionHandler } from './stop-notice-retention.job';
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

const settled = (overrides: Partial<OrderSettledV2> = {}): OrderSettledV2 => ({
  orderNo: 'CP9-0001',
  chargePointId: 'CP-9',
  connectorId: 1,
  transactionId: 4242,
  energyWh: 20_000,
  totalFen: 1_234_567,
  payStatus: 0,
  abnormalReasons: [],
  stoppedAt: '2025-06-01T00:00:00.000Z',
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
      // Kafka consumers join their groups asynchronously: wait for a warm-up stop and its order to come
      // through (the order's follow-up push shows the second group is in).
      const warmUp = { chargePointId: 'WARM-UP', transactionId: 1 };
      await producer.publish(
        createEnvelope(TransactionStopped, 'WARM-UP', stopped({ ...warmUp, stopKind: 'normal' })),
      );
      await eventually(
        () => expect(receiver.received(STOMP_STOP_NOTICE_TOPIC).length).toBeGreaterThan(0),
        60_000,
      );
      await producer.publish(createEnvelope(OrderSettled, 'WARM-UP', settled(warmUp)));
      await eventually(() => expect(receiver.received(STOMP_STOP_NOTICE_TOPIC).length).toBe(2), 60_000);
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
      key: 'CP-9/4242',
      stop: {
        chargePointId: 'CP-9',
        connectorId: 1,
        transactionId: 4242,
        reason: 'EmergencyStop',
        energyWh: 20_000,
      },
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

  it('pushes the order amount as a follow-up of the same notice when the order is settled after the stop, once', async () => {
    receiver.messages.clear();
    const key = { chargePointId: 'CP-9', transactionId: 5001 };
    await producer.publish(
      createEnvelope(TransactionStopped, 'CP-9', stopped({ ...key, stopKind: 'normal', reason: 'Local' })),
    );
    await eventually(() => expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toHaveLength(1));
    const [notice] = receiver.received(STOMP_STOP_NOTICE_TOPIC) as Record<string, unknown>[];
    expect(notice).toEqual(expect.objectContaining({ type: 1, key: 'CP-9/5001' }));
    expect(notice).not.toHaveProperty('amountFen');

    const order = createEnvelope(
      OrderSettled,
      'CP-9',
      settled({ ...key, orderNo: 'CP9-5001', totalFen: 8_888 }),
    );
    await producer.publish(order);
    await eventually(() =>
      expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([
        notice,
        { ...notice, amountFen: 8_888, orderHeld: false },
      ]),
    );
    // The same order event again: nothing more.
    await producer.publish(order);
    await sleep(500);
    expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toHaveLength(2);
    expect(bystander.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([]);
  });

  it('pushes one notice already carrying the amount when the order was settled before the stop arrived', async () => {
    receiver.messages.clear();
    const key = { chargePointId: 'CP-9', transactionId: 5002 };
    await producer.publish(
      createEnvelope(
        OrderSettled,
        'CP-9',
        settled({ ...key, orderNo: 'CP9-5002', totalFen: 0, payStatus: 3 }),
      ),
    );
    await eventually(async () => {
      const [{ n }] = await db.dataSource.query(
        `SELECT count(*)::int AS n FROM msg_stop_notice WHERE transaction_id = 5002 AND total_fen IS NOT NULL`,
      );
      expect(n).toBe(1);
    });
    expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([]); // no stop yet: nothing to show
    const stop = createEnvelope(
      TransactionStopped,
      'CP-9',
      stopped({ ...key, stopKind: 'normal', reason: 'Local' }),
    );
    await producer.publish(stop);
    await eventually(() =>
      expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([
        expect.objectContaining({ type: 1, key: 'CP-9/5002', amountFen: 0, orderHeld: true }),
      ]),
    );
    await producer.publish(stop);
    await sleep(500);
    expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toHaveLength(1);
  });

  it('follows an amendment: the notice is pushed again with the amended amount, once', async () => {
    receiver.messages.clear();
    // A lost stop: held at 0 when the session was abandoned; its real stop comes, then completes it.
    const key = { chargePointId: 'CP-9', transactionId: 5003 };
    await producer.publish(
      createEnvelope(
        OrderSettled,
        'CP-9',
        settled({ ...key, orderNo: 'CP9-5003', totalFen: 0, payStatus: 3, abnormalReasons: ['stopMissing'] }),
      ),
    );
    await eventually(async () => {
      const [{ n }] = await db.dataSource.query(
        `SELECT count(*)::int AS n FROM msg_stop_notice WHERE transaction_id = 5003 AND total_fen IS NOT NULL`,
      );
      expect(n).toBe(1);
    });
    await producer.publish(
      createEnvelope(
        TransactionStopped,
        'CP-9',
        stopped({ ...key, stopKind: 'abnormal', reason: 'PowerLoss', afterAbandon: true }),
      ),
    );
    await eventually(() =>
      expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([
        expect.objectContaining({ key: 'CP-9/5003', amountFen: 0, orderHeld: true }),
      ]),
    );
    const [notice] = receiver.received(STOMP_STOP_NOTICE_TOPIC) as Record<string, unknown>[];
    const amended: OrderAmendedV1 = {
      ...key,
      orderNo: 'CP9-5003',
      connectorId: 1,
      version: 2,
      kind: 'completed',
      reason: 'StopTransaction (PowerLoss) of a session closed by rule rebooted',
      amendedBy: 'system',
      amendedAt: '2025-06-01T01:00:00.000Z',
      figures: {
        meterStopWh: 20_000,
        energyWh: 20_000,
        electricityFen: 1_500,
        serviceFen: 500,
        totalFen: 2_000,
        payStatus: 0,
      },
      difference: {
        meterStopWh: 5_000,
        energyWh: 5_000,
        electricityFen: 1_500,
        serviceFen: 500,
        totalFen: 2_000,
      },
      abnormalReasons: [],
      stoppedAt: '2025-06-01T00:00:00.000Z',
    };
    const event = createEnvelope(OrderAmended, 'CP-9', amended);
    await producer.publish(event);
    await eventually(() =>
      expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([
        notice,
        { ...notice, amountFen: 2_000, orderHeld: false },
      ]),
    );
    await producer.publish(event);
    await sleep(500);
    expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toHaveLength(2);
  });

  it('still reads order.settled version 1 (events published before the upgrade)', async () => {
    receiver.messages.clear();
    const key = { chargePointId: 'CP-9', transactionId: 5004 };
    await producer.publish(
      createEnvelope(TransactionStopped, 'CP-9', stopped({ ...key, stopKind: 'normal', reason: 'Local' })),
    );
    await eventually(() => expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toHaveLength(1));
    await producer.publish(
      createEnvelope(OrderSettledLegacy, 'CP-9', {
        ...settled({ ...key, orderNo: 'CP9-5004', totalFen: 777 }),
        abnormalReasons: ['an English sentence, as version 1 carried'],
      }),
    );
    await eventually(() =>
      expect(receiver.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([
        expect.anything(),
        expect.objectContaining({ key: 'CP-9/5004', amountFen: 777, orderHeld: false }),
      ]),
    );
  });

  it('pushes the amount exactly once when a stop and its order arrive together', async () => {
    receiver.messages.clear();
    const ids = Array.from({ length: 20 }, (_, i) => 6000 + i);
    await Promise.all(
      ids.flatMap((transactionId) => [
        producer.publish(
          createEnvelope(
            TransactionStopped,
            'CP-9',
            stopped({ transactionId, stopKind: 'normal', reason: 'Local' }),
          ),
        ),
        producer.publish(
          createEnvelope(
            OrderSettled,
            'CP-9',
            settled({ transactionId, orderNo: `CP9-${transactionId}`, totalFen: transactionId }),
          ),
        ),
      ]),
    );
    const withAmount = () =>
      (receiver.received(STOMP_STOP_NOTICE_TOPIC) as { key: string; amountFen?: number }[]).filter(
        (n) => n.amountFen !== undefined,
      );
    await eventually(() => expect(withAmount()).toHaveLength(ids.length), 15_000);
    await sleep(500);
    const pushes = receiver.received(STOMP_STOP_NOTICE_TOPIC) as { key: string; amountFen?: number }[];
    for (const transactionId of ids) {
      const mine = pushes.filter((n) => n.key === `CP-9/${transactionId}`);
      // The notice and a follow-up with the amount, or one notice with it: the amount never twice.
      // (Two pushes may reach a client in either order: the console keeps the amount it has.)
      expect(mine.filter((n) => n.amountFen !== undefined).map((n) => n.amountFen)).toEqual([transactionId]);
      expect(mine.length).toBeLessThanOrEqual(2);
    }
  });

  it("the worker's retention job deletes notice rows untouched for a week", async () => {
    await db.dataSource.query(
      `INSERT INTO msg_stop_notice (charge_point_id, transaction_id, total_fen, order_no, order_held, updated_at)
       VALUES ('OLD', 1, 1, 'O', false, now() - interval '8 days')`,
    );
    const before = Number((await db.dataSource.query(`SELECT count(*)::int AS n FROM msg_stop_notice`))[0].n);
    const handler = new StopNoticeRetentionHandler(new StopNoticeRepository(db.dataSource));
    expect(await handler.handle()).toBe(1);
    expect(await db.dataSource.query(`SELECT 1 FROM msg_stop_notice WHERE charge_point_id = 'OLD'`)).toEqual(
      [],
    );
    expect(Number((await db.dataSource.query(`SELECT count(*)::int AS n FROM msg_stop_notice`))[0].n)).toBe(
      before - 1,
    );
  });
});
