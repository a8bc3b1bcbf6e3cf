/**
 * An IC card's life reaches the pile (issue #25): the IC-card area announces every status change of a
 * card through its outbox (`iccard.card.changed`); the assets area's consumer keeps the basic-data
 * charging card and the gateway's id tag; a simulated pile's Authorize follows: a registered card is
 * Invalid, a made (and recharged) card Accepted, a card reported lost Blocked within seconds, released
 * Accepted again. An older event replayed never brings back an older state. A card that existed before
 * the change is announced once by the migration's backfill.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import {
  CardRepository,
  IcCardSyncService,
  IdTagRepository,
  icCardSyncSubscription,
} from '@voltdepot/server-assets';
import { allMigrations, createDataSource } from '@voltdepot/server-database';
import {
  CardActionsService,
  CardAnnouncerWriter,
  IcCardRepository,
  IcCardService,
  type IcCardDataScope,
} from '@voltdepot/server-iccard';
import { CardAuthorisationWriter, LedgerRepository, LedgerService } from '@voltdepot/server-ledger';
import { createEnvelope, OutboxRelay, RedisStreamsBus, type Subscription } from '@voltdepot/server-messaging';
import { OcppGateway } from '@voltdepot/server-ocpp-gateway';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';
import { createTestDatabase, eventually, testEnv, type TestDatabase } from '@voltdepot/server-testing';
import { IcCardChanged, type IcCardChangedV1 } from '@voltdepot/shared-events';

const PILE = `ICSYNC-${randomUUID().slice(0, 4)}`;
const CARD = `IC${randomUUID().slice(0, 6).toUpperCase()}`;
const OPERATOR = 1;

let db: TestDatabase;
let bus: RedisStreamsBus;
let redis: Redis;
let gateway: OcppGateway;
let pile: SimulatedPile;
let api: { dataSource: DataSource; relay: OutboxRelay; cards: IcCardService; actions: CardActionsService };
let consumer: Subscription;
const prefix = `vdicsync${randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  db = await createTestDatabase();
  bus = new RedisStreamsBus({ url: testEnv().redisUrl, prefix, blockMs: 100, trimIntervalMs: 0 });
  redis = new Redis(testEnv().redisUrl);
  await db.dataSource.query(
    `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)`,
    [PILE, pilePasswordHasherFromEnv().hash('pile-secret')],
  );
  gateway = new OcppGateway(
    { dataSource: db.dataSource, redis, bus, logger: pino({ level: 'silent' }) },
    {
      OCPP_PORT: 0,
      OCPP_HOST: '127.0.0.1',
      OCPP_REDIS_PREFIX: prefix,
      OCPP_ID_TAG_CACHE_MS: 1_000,
      OCPP_REGISTRY_REFRESH_MS: 200,
    },
  );
  const port = await gateway.start();
  pile = new SimulatedPile({
    url: `ws://127.0.0.1:${port}/ocpp`,
    chargePointId: PILE,
    password: 'pile-secret',
    connectors: 1,
    bootRetryMs: 500,
  });
  await pile.start();

  // The api: the IC-card area (HTTP side) with the ledger, its outbox and relay.
  const dataSource = await createDataSource({ url: db.url, applicationName: 'api' }).initialize();
  const relay = new OutboxRelay(dataSource, bus, { idleMs: 200, busyCycleMs: 25 });
  relay.start();
  const ledger = new LedgerService(
    new LedgerRepository(dataSource, new CardAuthorisationWriter(1), () => relay.nudge()),
    { minimumBalanceFen: 1 },
  );
  const [org] = await dataSource.query(`SELECT id, path FROM sys_organization ORDER BY id LIMIT 1`);
  const scope: IcCardDataScope = { rootIds: [Number(org.id)], pathPatterns: [`${org.path}%`] };
  const scopes = { scopeOf: async () => scope };
  const repository = new IcCardRepository(dataSource);
  const announcer = new CardAnnouncerWriter();
  api = {
    dataSource,
    relay,
    cards: new IcCardService(repository, ledger, scopes, announcer, () => relay.nudge()),
    actions: new CardActionsService(repository, ledger, scopes, announcer, () => relay.nudge()),
  };

  // The api worker's assets consumer.
  const sync = new IcCardSyncService(
    (work) => db.dataSource.transaction(work),
    new CardRepository(),
    new IdTagRepository(),
  );
  consumer = await bus.subscribe(icCardSyncSubscription(sync, { warn: () => undefined }));
}, 60_000);

afterAll(async () => {
  await consumer?.close();
  await pile?.stop();
  await gateway?.stop();
  await api?.relay.stop();
  await api?.dataSource.destroy();
  await bus?.close();
  if (redis) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
  await db?.drop();
});

const authorize = async (idTag = CARD) =>
  (await pile.call<{ idTagInfo: { status: string } }>('Authorize', { idTag })).idTagInfo.status;

async function authorizeUntil(status: string, idTag = CARD): Promise<number> {
  const started = Date.now();
  await eventually(
    async () => {
      const got = await authorize(idTag);
      if (got !== status) throw new Error(`Authorize answered ${got}, waiting for ${status}`);
    },
    10_000,
    100,
  );
  return Date.now() - started;
}

const perform = (action: Parameters<CardActionsService['perform']>[2], dto: Record<string, unknown> = {}) =>
  api.actions.perform(OPERATOR, CARD, action, { requestId: randomUUID(), ...dto });

it('makes an IC card usable at the pile, blocks it within seconds when reported lost, and accepts it again when released', async () => {
  expect(await authorize()).toBe('Invalid'); // unknown to the gateway

  const holder = await api.cards.saveCustomer(OPERATOR, undefined, {
    clientType: 1,
    userName: 'Driver Han',
    certificateType: 'ID card',
    certificateNumber: 'ID-0001',
    customerType: 'private',
    identityVerified: true,
  });
  await api.cards.createCard(OPERATOR, { cardNo: CARD, chip: 'CPU', cardType: 3, customerId: holder.id });
  // Registered, not made: the basic-data card exists, the pile refuses it.
  await eventually(async () => {
    const [row] = await db.dataSource.query(
      `SELECT type, status, cardholder, self_number FROM charging_card WHERE physical_number = $1`,
      [CARD],
    );
    expect(row).toEqual({ type: 3, status: 'notMade', cardholder: 'Driver Han', self_number: CARD });
  }, 10_000);
  expect(await authorize()).toBe('Invalid');

  await perform('makeCpu');
  await perform('recharge', { presentedCardNo: CARD, amount: 10_000 });
  await authorizeUntil('Accepted');

  await perform('reportLoss', { certificateNumber: 'ID-0001' });
  expect(await authorizeUntil('Blocked')).toBeLessThan(5_000);
  const start = await pile.call<{ idTagInfo: { status: string }; transactionId: number }>(
    'StartTransaction',
    {
      connectorId: 1,
      idTag: CARD,
      meterStart: 0,
      timestamp: new Date().toISOString(),
    },
  );
  expect(start.idTagInfo.status).toBe('Blocked');
  await pile.call('StopTransaction', {
    transactionId: start.transactionId,
    meterStop: 0,
    timestamp: new Date().toISOString(),
    reason: 'DeAuthorized',
  });

  // The "normal" of the card's making, replayed from the outbox, does not unblock the lost card.
  const [made] = await db.dataSource.query<{ payload: IcCardChangedV1 }[]>(
    `SELECT payload FROM outbox_event WHERE type = $1 AND key = $2 AND payload->>'status' = 'normal'
      ORDER BY (payload->>'sequence')::bigint LIMIT 1`,
    [IcCardChanged.type, CARD],
  );
  await bus.publish(createEnvelope(IcCardChanged, CARD, made.payload));
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // delivered (blockMs 100) and applied, or not
  gateway.idTags.expire(CARD);
  expect(await authorize()).toBe('Blocked');

  await perform('releaseLoss', { certificateNumber: 'ID-0001' });
  expect(await authorizeUntil('Accepted')).toBeLessThan(5_000);

  // Every status change was announced in order, once.
  const events = await db.dataSource.query<{ status: string }[]>(
    `SELECT payload->>'status' AS status FROM outbox_event WHERE type = $1 AND key = $2
      ORDER BY (payload->>'sequence')::bigint`,
    [IcCardChanged.type, CARD],
  );
  expect(events.map((e) => e.status)).toEqual(['notMade', 'normal', 'lost', 'normal']);
}, 60_000);

it("follows a customer's new name on its cards' charging cards (the holder shown on the grid)", async () => {
  const [customer] = await db.dataSource.query(
    `SELECT u.id FROM ic_customer u JOIN ic_card k ON k.customer_id = u.id WHERE k.card_no = $1`,
    [CARD],
  );
  await api.cards.saveCustomer(OPERATOR, Number(customer.id), {
    clientType: 1,
    userName: 'Driver Han Lei',
    certificateType: 'ID card',
    certificateNumber: 'ID-0001',
    customerType: 'private',
    identityVerified: true,
  });
  await eventually(async () => {
    const [row] = await db.dataSource.query(
      `SELECT status, cardholder FROM charging_card WHERE physical_number = $1`,
      [CARD],
    );
    expect(row).toEqual({ status: 'normal', cardholder: 'Driver Han Lei' });
  }, 10_000);
}, 60_000);

it('the migration announces the IC cards that existed before it, once', async () => {
  // A card written before this change (nothing announced it): the migration, run again, announces it.
  const IcCardCardSync = allMigrations.find((m) => m.name === 'IcCardCardSync1764210000200')!;
  const old = `OLD${randomUUID().slice(0, 6).toUpperCase()}`;
  const [customer] = await db.dataSource.query(`SELECT id, ledger_account_id FROM ic_customer LIMIT 1`);
  await db.dataSource.query(
    `INSERT INTO ic_card (card_no, chip, card_type, status, customer_id, ledger_account_id)
     VALUES ($1, 'M1', 1, 'lost', $2, $3)`,
    [old, customer.id, customer.ledger_account_id],
  );
  const runner = db.dataSource.createQueryRunner();
  try {
    const migration = new IcCardCardSync();
    await migration.down(runner);
    await migration.up(runner);
  } finally {
    await runner.release();
  }
  await api.relay.nudge();
  await eventually(async () => {
    const [row] = await db.dataSource.query(`SELECT status FROM charging_card WHERE physical_number = $1`, [
      old,
    ]);
    expect(row).toEqual({ status: 'lost' });
  }, 10_000);
  await authorizeUntil('Blocked', old);
}, 60_000);
