/**
 * A prepaid IC card charges through a simulated pile, end to end (issue #25): the IC-card area registers,
 * makes and recharges the card (its events reach the gateway through the assets worker); the OCPP gateway
 * and the api worker (settlement, the ledger's consumption, the assets' IC-card sync) run in their own
 * processes on a real PostgreSQL and Redis bus. The card's balance drops by each order's amount exactly
 * once: also when the pile replays its StopTransaction, when the api worker (and with it the ledger's
 * consumption consumer) is SIGKILLed while it is consuming a batch of orders and started again, and when
 * the orders' events are delivered again. A card emptied below the minimum is Blocked at the pile on its
 * next Authorize.
 */
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@voltdepot/server-database';
import {
  CardActionsService,
  CardAnnouncerWriter,
  IcCardRepository,
  IcCardService,
  type IcCardDataScope,
} from '@voltdepot/server-iccard';
import { CardAuthorisationWriter, LedgerRepository, LedgerService } from '@voltdepot/server-ledger';
import { busConfigFromEnv, createEventBus, OutboxRelay, type EventBus } from '@voltdepot/server-messaging';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import {
  createTestDatabase,
  eventually,
  freePort,
  spawnTs,
  waitForHealthy,
  type TestDatabase,
  type TsProcess,
} from '@voltdepot/server-testing';
import type { EventEnvelope } from '@voltdepot/shared-events';
import { seedTestDepot } from './fixtures/depot';
import { busDrivers, ENTRY_POINTS, platformEnv } from './fixtures/platform';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** LEDGER_MINIMUM_BALANCE_FEN of the api worker and of the IC-card side: 10.00 yuan. */
const MINIMUM_FEN = 1_000;
const RECHARGE_FEN = 10_000; // 100.00 yuan
const OPERATOR = 1;

jest.setTimeout(240_000);

describe.each(busDrivers())('a prepaid IC card charging through a simulated pile (bus %j)', (busEnv) => {
  let db: TestDatabase;
  let bus: EventBus;
  let gateway: TsProcess | undefined;
  let pile: SimulatedPile;
  const workers: TsProcess[] = [];
  let ic: {
    dataSource: DataSource;
    relay: OutboxRelay;
    ledger: LedgerService;
    cards: IcCardService;
    actions: CardActionsService;
  };
  const prefix = `vdicpp${randomUUID().slice(0, 6)}`;
  const PILE = `${prefix}-P0`;
  const CARD = `PP${randomUUID().slice(0, 6).toUpperCase()}`;
  const ocppPort = 20000 + Math.floor(Math.random() * 5000);
  let accountId: number;
  const common = (): Record<string, string> => ({
    ...platformEnv({ databaseUrl: db.url, prefix, busEnv }),
    DEMO_DATA: 'false',
    LEDGER_MINIMUM_BALANCE_FEN: String(MINIMUM_FEN),
  });

  /** The api worker: settlement, the ledger's consumption and the assets' IC-card sync run there. */
  async function startWorker(): Promise<TsProcess> {
    const port = await freePort();
    const worker = spawnTs(ENTRY_POINTS.apiWorker, { ...common(), API_WORKER_PORT: String(port) });
    workers.push(worker);
    await waitForHealthy(worker, `http://127.0.0.1:${port}/health`);
    return worker;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    // The tariff and the pile; no card: the IC card reaches the gateway through the bus.
    await seedTestDepot(db, { chargePointIds: [PILE], password: 'pile-secret' }, []);
    bus = createEventBus(busConfigFromEnv({ ...common() }, 'iccard-prepaid-test'));
    gateway = spawnTs(ENTRY_POINTS.gateway, {
      ...common(),
      PORT: String(await freePort()),
      OCPP_PORT: String(ocppPort),
      OCPP_HOST: '127.0.0.1',
      OCPP_REGISTRY_REFRESH_MS: '200',
      OCPP_ID_TAG_CACHE_MS: '1000',
      LOG_LEVEL: 'info',
    });
    await gateway.waitForLine(/OCPP gateway listening/, 90_000);
    await startWorker();

    // The api's IC-card side (what its HTTP routes call), with its own outbox relay.
    const dataSource = await createDataSource({ url: db.url, applicationName: 'api' }).initialize();
    const relay = new OutboxRelay(dataSource, bus, { idleMs: 200, busyCycleMs: 25 });
    relay.start();
    const ledger = new LedgerService(
      new LedgerRepository(dataSource, new CardAuthorisationWriter(MINIMUM_FEN), () => relay.nudge()),
      { minimumBalanceFen: MINIMUM_FEN },
    );
    const [org] = await dataSource.query(`SELECT id, path FROM sys_organization ORDER BY id LIMIT 1`);
    const scope: IcCardDataScope = { rootIds: [Number(org.id)], pathPatterns: [`${org.path}%`] };
    const scopes = { scopeOf: async () => scope };
    const repository = new IcCardRepository(dataSource);
    const announcer = new CardAnnouncerWriter();
    ic = {
      dataSource,
      relay,
      ledger,
      cards: new IcCardService(repository, ledger, scopes, announcer, () => relay.nudge()),
      actions: new CardActionsService(repository, ledger, scopes, announcer, () => relay.nudge()),
    };

    pile = new SimulatedPile({
      url: `ws://127.0.0.1:${ocppPort}/ocpp`,
      chargePointId: PILE,
      password: 'pile-secret',
      connectors: 1,
      timeScale: 60,
      meterIntervalMs: 250,
      maxPowerW: 120_000,
      bootRetryMs: 300,
      reconnectDelayMs: 300,
    });
    await pile.start();
  }, 180_000);

  afterAll(async () => {
    await pile?.stop();
    for (const worker of workers) await worker.kill();
    await gateway?.kill();
    await ic?.relay.stop();
    await ic?.dataSource.destroy();
    await bus?.close();
    await db?.drop();
  });

  const authorize = async () =>
    (await pile.call<{ idTagInfo: { status: string } }>('Authorize', { idTag: CARD })).idTagInfo.status;

  async function authorizeUntil(status: string): Promise<void> {
    await eventually(
      async () => {
        const got = await authorize();
        if (got !== status) throw new Error(`Authorize answered ${got}, waiting for ${status}`);
      },
      15_000,
      100,
    );
  }

  const perform = (action: Parameters<CardActionsService['perform']>[2], dto: Record<string, unknown> = {}) =>
    ic.actions.perform(OPERATOR, CARD, action, { requestId: randomUUID(), ...dto });

  /** The card's orders (billing's), with their totals. */
  const orders = async () =>
    (
      await db.dataSource.query<{ order_no: string; total_fen: string }[]>(
        `SELECT order_no, total_fen FROM charging_order WHERE id_tag = $1 ORDER BY transaction_id`,
        [CARD],
      )
    ).map((o) => ({ orderNo: o.order_no, totalFen: Number(o.total_fen) }));

  /** The ledger's consumption postings of the card's orders: how many per order. */
  const consumptions = async () =>
    db.dataSource.query<{ idempotency_key: string }[]>(
      `SELECT idempotency_key FROM ledger_transaction WHERE kind = 'consumption' AND idempotency_key LIKE 'order:%'`,
    );

  const account = async () => {
    const [row] = await db.dataSource.query(
      `SELECT balance_fen, arrears_fen FROM ledger_account_v WHERE id = $1`,
      [accountId],
    );
    return { balanceFen: Number(row.balance_fen), arrearsFen: Number(row.arrears_fen) };
  };

  /** One charging session on the gun: `seconds` of charging, stopped by the driver. */
  async function charge(seconds: number, options: { replayStop?: boolean } = {}) {
    const session = await pile.startSession(1, CARD, {
      autoStop: false,
      startSoc: 20,
      capacityWh: 400_000,
      ...options,
    });
    expect(session.idTagStatus).toBe('Accepted');
    await sleep(seconds * 1_000);
    await pile.stopSession(1, 'EVDisconnected');
    await pile.drained(30_000);
    return session;
  }

  /**
   * A gate in the ledger's table: once `after` consumption postings exist, the next one's INSERT waits
   * on an advisory lock this test holds (a trigger of this test's own database), until `open`.
   */
  async function closeGateAfterConsumptions(after: number) {
    const GATE = 25_025;
    const holder = db.dataSource.createQueryRunner();
    await holder.connect();
    await holder.query(`SELECT pg_advisory_lock(${GATE})`);
    await db.dataSource.query(`
      CREATE FUNCTION test_consumption_gate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT count(*) FROM ledger_transaction WHERE kind = 'consumption') >= ${after} THEN
          PERFORM pg_advisory_xact_lock(${GATE});
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_consumption_gate BEFORE INSERT ON ledger_transaction
        FOR EACH ROW WHEN (NEW.kind = 'consumption') EXECUTE FUNCTION test_consumption_gate();`);
    return {
      /** Resolves once a posting waits at the gate. */
      waitUntilHeld: () =>
        eventually(
          async () => {
            const [{ n }] = await db.dataSource.query(
              `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`,
              [GATE],
            );
            expect(n).toBe(1);
          },
          60_000,
          50,
        ),
      open: async () => {
        await holder.query(`SELECT pg_advisory_unlock(${GATE})`);
        await holder.release();
        // Waits for the killed worker's posting, let through, to end (rolled back: its client is gone).
        await db.dataSource.query(
          `DROP TRIGGER test_consumption_gate ON ledger_transaction; DROP FUNCTION test_consumption_gate()`,
        );
      },
    };
  }

  /** Every order of the card posted once, and the account exactly what the money says. */
  async function expectExactBalance(refundedFen: number) {
    await eventually(
      async () => {
        const billed = (await orders()).filter((o) => o.totalFen > 0);
        const posted = (await consumptions()).map((c) => c.idempotency_key);
        expect(posted.sort()).toEqual(billed.map((o) => `order:${o.orderNo}:v1`).sort());
        const spent = billed.reduce((sum, o) => sum + o.totalFen, 0);
        const { balanceFen, arrearsFen } = await account();
        expect(balanceFen - arrearsFen).toBe(RECHARGE_FEN - refundedFen - spent);
      },
      60_000,
      200,
    );
  }

  it('debits each order exactly once through replays and a killed consumer, and blocks the emptied card', async () => {
    // Register, make and recharge the card (100.00 yuan) at the card office.
    const holder = await ic.cards.saveCustomer(OPERATOR, undefined, {
      clientType: 1,
      userName: 'Driver Zhao',
      certificateType: 'ID card',
      certificateNumber: 'ID-PP-01',
      customerType: 'private',
      identityVerified: true,
    });
    accountId = holder.accountId!;
    await ic.cards.createCard(OPERATOR, { cardNo: CARD, chip: 'CPU', cardType: 3, customerId: holder.id });
    await perform('makeCpu');
    await perform('recharge', { presentedCardNo: CARD, amount: RECHARGE_FEN });
    await authorizeUntil('Accepted');

    // 1. A session whose StopTransaction the pile sends twice (the gateway answers both).
    const replayed = new Promise<{ transactionId?: number }>((resolve) => pile.once('stopReplayed', resolve));
    const first = await charge(1.5, { replayStop: true });
    expect((await replayed).transactionId).toBe(first.transactionId);
    expect(first.energyWh).toBeGreaterThan(0);
    await eventually(async () => expect(await orders()).toHaveLength(1), 60_000, 100);
    await expectExactBalance(0);
    const [firstOrder] = await orders();
    expect(firstOrder.totalFen).toBeGreaterThan(0);
    expect((await account()).balanceFen).toBe(RECHARGE_FEN - firstOrder.totalFen);

    // 2. The worker is down while three sessions are charged; started again, it settles them and the
    // ledger consumes the three orders. A gate holds the posting of the second one (its INSERT waits on a
    // lock the test holds), so the kill lands mid-way for sure: one order posted, the next in flight.
    await workers[workers.length - 1].kill('SIGKILL');
    for (let i = 0; i < 3; i++) await charge(1);
    const gate = await closeGateAfterConsumptions(2);
    await startWorker();
    await gate.waitUntilHeld();
    expect(await consumptions()).toHaveLength(2);
    await workers[workers.length - 1].kill('SIGKILL');
    await gate.open();
    expect(await consumptions()).toHaveLength(2); // the killed posting did not commit
    await startWorker();
    await eventually(async () => expect(await orders()).toHaveLength(4), 60_000, 100);
    await expectExactBalance(0);

    // 3. The orders' events delivered again (the same envelopes and copies with new ids): nothing more.
    const settled: EventEnvelope[] = (
      await db.dataSource.query(
        `SELECT event_id, topic, key, type, version, occurred_at, correlation_id, payload
           FROM outbox_event WHERE topic = 'orders' ORDER BY id`,
      )
    ).map((row: Record<string, unknown>) => ({
      eventId: String(row['event_id']),
      topic: String(row['topic']),
      key: String(row['key']),
      type: String(row['type']),
      version: Number(row['version']),
      occurredAt: new Date(row['occurred_at'] as string).toISOString(),
      correlationId: String(row['correlation_id']),
      payload: row['payload'],
    }));
    expect(settled.length).toBeGreaterThanOrEqual(4);
    await bus.publish(settled);
    await bus.publish(settled.map((e) => ({ ...e, eventId: randomUUID() })));
    await sleep(2_000);
    await expectExactBalance(0);
    expect(await authorize()).toBe('Accepted');

    // 4. Refund down to 15.00 yuan (just above the 10.00 minimum), then charge until the card is below it.
    const { balanceFen } = await account();
    const refundedFen = balanceFen - 1_500;
    await perform('refundWithCard', { presentedCardNo: CARD, amount: refundedFen });
    for (let i = 0; i < 10 && (await account()).balanceFen >= MINIMUM_FEN; i++) {
      const before = (await orders()).length;
      await charge(2);
      await eventually(async () => expect((await orders()).length).toBe(before + 1), 60_000, 100);
      await expectExactBalance(refundedFen);
    }
    const emptied = await account();
    expect(emptied.balanceFen - emptied.arrearsFen).toBeLessThan(MINIMUM_FEN);
    // Blocked at the pile on its next Authorize (within the seconds the announcement takes).
    await authorizeUntil('Blocked');
    const start = await pile.call<{ idTagInfo: { status: string } }>('StartTransaction', {
      connectorId: 1,
      idTag: CARD,
      meterStart: 0,
      timestamp: new Date().toISOString(),
    });
    expect(start.idTagInfo.status).toBe('Blocked');
  });
});
