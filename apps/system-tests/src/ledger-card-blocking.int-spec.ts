/**
 * A prepaid card blocked by its ledger account, at the pile (issue #25): the ledger (the api's side, its
 * own connections and outbox relay) announces the change through the outbox and the bus; the gateway
 * keeps it in its own read model and a simulated pile's Authorize and StartTransaction get Blocked within
 * seconds, also while the api is stopped (and the ledger's tables out of reach); a replayed older event
 * does not unblock the card; a recharge does, within seconds.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@voltdepot/server-database';
import {
  CardAuthorisationWriter,
  ConsumptionService,
  LedgerRepository,
  LedgerService,
} from '@voltdepot/server-ledger';
import { createEnvelope, OutboxRelay, RedisStreamsBus } from '@voltdepot/server-messaging';
import { OcppGateway } from '@voltdepot/server-ocpp-gateway';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';
import { createTestDatabase, eventually, testEnv, type TestDatabase } from '@voltdepot/server-testing';
import {
  CardAuthorisationChanged,
  OrderSettled,
  type CardAuthorisationChangedV1,
  type EventEnvelope,
} from '@voltdepot/shared-events';

const CARD = 'PREPAID-0001';
const PILE = `LEDGER-${randomUUID().slice(0, 4)}`;
const MINIMUM_FEN = 500;
/** The gateway's usual cache lifetime: the consumer makes an applied card's entry stale at once. */
const CACHE_MS = 5_000;

let db: TestDatabase;
let bus: RedisStreamsBus;
let redis: Redis;
let gateway: OcppGateway;
let pile: SimulatedPile;
const prefix = `vdledger${randomUUID().slice(0, 6)}`;

/** The api's side: its own connections, outbox relay and ledger; stopped and started again by the test. */
type ApiSide = { dataSource: DataSource; relay: OutboxRelay; ledger: LedgerService };
let api: ApiSide | undefined;

async function startApi(): Promise<ApiSide> {
  const dataSource = await createDataSource({ url: db.url, applicationName: 'api' }).initialize();
  const relay = new OutboxRelay(dataSource, bus, { idleMs: 200, busyCycleMs: 25 });
  relay.start();
  const repository = new LedgerRepository(dataSource, new CardAuthorisationWriter(MINIMUM_FEN), () =>
    relay.nudge(),
  );
  return { dataSource, relay, ledger: new LedgerService(repository, { minimumBalanceFen: MINIMUM_FEN }) };
}

async function stopApi(): Promise<void> {
  await api?.relay.stop();
  await api?.dataSource.destroy();
  api = undefined;
}

beforeAll(async () => {
  db = await createTestDatabase();
  bus = new RedisStreamsBus({ url: testEnv().redisUrl, prefix, blockMs: 100, trimIntervalMs: 0 });
  redis = new Redis(testEnv().redisUrl);
  await db.dataSource.query(
    `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)`,
    [PILE, pilePasswordHasherFromEnv().hash('pile-secret')],
  );
  await db.dataSource.query(`INSERT INTO id_tag (id_tag, status) VALUES ($1, 'Accepted')`, [CARD]);
  gateway = new OcppGateway(
    { dataSource: db.dataSource, redis, bus, logger: pino({ level: 'silent' }) },
    {
      OCPP_PORT: 0,
      OCPP_HOST: '127.0.0.1',
      OCPP_REDIS_PREFIX: prefix,
      OCPP_ID_TAG_CACHE_MS: CACHE_MS,
      OCPP_REGISTRY_REFRESH_MS: 200,
    },
  );
  const port = await gateway.start();
  pile = new SimulatedPile({
    url: `ws://127.0.0.1:${port}/ocpp`,
    chargePointId: PILE,
    password: 'pile-secret',
    connectors: 2,
    bootRetryMs: 500,
  });
  await pile.start();
  api = await startApi();
});

afterAll(async () => {
  await pile?.stop();
  await gateway?.stop();
  await stopApi();
  await bus?.close();
  if (redis) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
  await db?.drop();
});

const authorize = async () =>
  (await pile.call<{ idTagInfo: { status: string } }>('Authorize', { idTag: CARD })).idTagInfo.status;

/** Authorize until it answers `status`; how long that took (ms). */
async function authorizeUntil(status: string, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  await eventually(
    async () => {
      const got = await authorize();
      if (got !== status) throw new Error(`Authorize answered ${got}, waiting for ${status}`);
    },
    timeoutMs,
    100,
  );
  return Date.now() - started;
}

const settled = (orderNo: string, totalFen: number): EventEnvelope =>
  createEnvelope(OrderSettled, PILE, {
    orderNo,
    chargePointId: PILE,
    connectorId: 1,
    transactionId: 1,
    energyWh: 10_000,
    totalFen,
    payStatus: 0,
    abnormalReasons: [],
    stoppedAt: new Date().toISOString(),
    idTag: CARD,
  });

it('blocks a prepaid card at the pile within seconds of its account falling below the minimum, and keeps it blocked without the api', async () => {
  const { ledger } = api!;
  const account = await ledger.openAccount({ kind: 'personal', name: 'Driver Chen' });
  await ledger.linkCard(CARD, account.id);
  await ledger.recharge({ idempotencyKey: 'sys-recharge-1', accountId: account.id, amountFen: 2_000 });
  // Linking announced the empty account as blocked, the recharge as not: wait until the gateway has taken
  // the second (before it, the card may read Accepted, then Blocked for a moment, then Accepted again).
  await eventually(
    async () => {
      const [row] = await db.dataSource.query(`SELECT blocked FROM id_tag_ledger_state WHERE id_tag = $1`, [
        CARD,
      ]);
      if (row?.blocked !== false) throw new Error(`the gateway's state is ${JSON.stringify(row)}`);
    },
    10_000,
    100,
  );
  await authorizeUntil('Accepted');
  expect(await authorize()).toBe('Accepted'); // cached now

  // Charging consumption (as the ledger worker posts an order.settled): 200 fen left, below 500.
  await new ConsumptionService(ledger).apply(settled('ORD-LEDGER-1', 1_800));
  expect(await ledger.blockedReason(account.id)).toBe('belowMinimum');
  const delay = await authorizeUntil('Blocked');
  expect(delay).toBeLessThan(3_000); // well within the cache lifetime: the consumer made the entry stale
  const start = await pile.call<{ idTagInfo: { status: string } }>('StartTransaction', {
    connectorId: 2,
    idTag: CARD,
    meterStart: 0,
    timestamp: new Date().toISOString(),
  });
  expect(start.idTagInfo.status).toBe('Blocked');
  await pile.call('StopTransaction', {
    transactionId: (start as unknown as { transactionId: number }).transactionId,
    meterStop: 0,
    timestamp: new Date().toISOString(),
    reason: 'DeAuthorized',
  });

  // The api stops; even the ledger's tables are out of reach. The gateway reads its own model again.
  await stopApi();
  await db.dataSource.query(`ALTER TABLE ledger_card_account RENAME TO ledger_card_account_away`);
  await db.dataSource.query(`ALTER TABLE ledger_account RENAME TO ledger_account_away`);
  try {
    gateway.idTags.expire(CARD);
    expect(await authorize()).toBe('Blocked');
    const [read] = await db.dataSource.query(`SELECT blocked FROM id_tag_ledger_state WHERE id_tag = $1`, [
      CARD,
    ]);
    expect(read).toEqual({ blocked: true });
  } finally {
    await db.dataSource.query(`ALTER TABLE ledger_account_away RENAME TO ledger_account`);
    await db.dataSource.query(`ALTER TABLE ledger_card_account_away RENAME TO ledger_card_account`);
  }

  // An older event replayed (the recharge's "may charge", as a reset consumer group would see it again).
  const [older] = await db.dataSource.query<{ payload: CardAuthorisationChangedV1 }[]>(
    `SELECT payload FROM outbox_event WHERE type = $1 AND key = $2 AND NOT (payload->>'blocked')::boolean
      ORDER BY (payload->>'sequence')::bigint LIMIT 1`,
    [CardAuthorisationChanged.type, CARD],
  );
  expect(older).toBeDefined();
  await bus.publish(createEnvelope(CardAuthorisationChanged, CARD, older.payload));
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // delivered (blockMs 100) and applied, or not
  gateway.idTags.expire(CARD);
  expect(await authorize()).toBe('Blocked');

  // The api is back; a recharge lifts the balance above the minimum: Accepted within seconds.
  api = await startApi();
  await api.ledger.recharge({ idempotencyKey: 'sys-recharge-2', accountId: account.id, amountFen: 1_000 });
  expect(await authorizeUntil('Accepted')).toBeLessThan(3_000);
}, 60_000);
