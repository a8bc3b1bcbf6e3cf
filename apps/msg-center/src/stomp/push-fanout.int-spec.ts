import {
  createTestDatabase,
  deleteRedisKeys,
  eventually,
  insertUser,
  TestDatabase,
} from '@voltdepot/server-testing';
import { STOMP_INBOX_TOPIC } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import {
  connectStomp,
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  testNamespace,
  tokenFor,
} from '../fixtures/msg-center.fixtures';
import { PushPublisher } from './push.publisher';

describe('PushPublisher.toEach: a different body per user, through Redis, on every replica', () => {
  let db: TestDatabase;
  let ns: string;
  let config: MsgCenterConfig;
  let replicaA: RunningMsgCenter;
  let replicaB: RunningMsgCenter;

  beforeAll(async () => {
    db = await createTestDatabase();
    ns = testNamespace();
    config = msgTestConfig(db, ns);
    replicaA = await startMsgCenter(config);
    replicaB = await startMsgCenter(config);
  });

  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    await deleteRedisKeys(config.REDIS_URL, ns);
    await db?.drop();
  });

  it("delivers each body only to its user's sessions, across chunks of 1,000 users", async () => {
    const alice = await insertUser(db.dataSource, ['operator']);
    const bob = await insertUser(db.dataSource, ['operator']);
    const aliceToken = await tokenFor(config, alice);
    const bobToken = await tokenFor(config, bob);
    const aliceTabs = [
      await connectStomp(replicaA.wsUrl, { passcode: aliceToken }, [STOMP_INBOX_TOPIC]),
      await connectStomp(replicaB.wsUrl, { passcode: aliceToken }, [STOMP_INBOX_TOPIC]),
    ];
    const bobTab = await connectStomp(replicaB.wsUrl, { passcode: bobToken }, [STOMP_INBOX_TOPIC]);
    try {
      // 2,500 items: users that are not connected anywhere, with alice in the first chunk and bob in the last.
      const items: { userId: number; body: { n: number | string } }[] = Array.from(
        { length: 2500 },
        (_, i) => ({
          userId: 1_000_000 + i,
          body: { n: i },
        }),
      );
      items[10] = { userId: alice.id, body: { n: 'alice' } };
      items[2400] = { userId: bob.id, body: { n: 'bob' } };
      await replicaA.app.get(PushPublisher).toEach(STOMP_INBOX_TOPIC, items);
      await eventually(() => {
        for (const tab of aliceTabs) expect(tab.received(STOMP_INBOX_TOPIC)).toEqual([{ n: 'alice' }]);
        expect(bobTab.received(STOMP_INBOX_TOPIC)).toEqual([{ n: 'bob' }]);
      }, 3000);
    } finally {
      for (const tab of [...aliceTabs, bobTab]) await tab.close();
    }
  });
});
