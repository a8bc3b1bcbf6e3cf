import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { SimulatedPile, type SessionRecord } from '@voltdepot/server-ocpp-simulator';
import {
  createTestDatabase,
  eventually,
  spawnTs,
  testEnv,
  type TestDatabase,
  type TsProcess,
} from '@voltdepot/server-testing';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';

/**
 * The gateway process is killed (SIGKILL) while piles stream meter values into its group commits,
 * and started again. A call whose batch had not committed was never acknowledged, so the pile sends
 * it again; one whose acknowledgement was lost with the process is sent again and changes nothing.
 * In the end every reading the piles took is stored exactly once, and announced exactly once.
 */
let db: TestDatabase;
let gateway: TsProcess | undefined;
let ocppPort: number;
const piles: SimulatedPile[] = [];
const prefix = `vdcr${randomUUID().slice(0, 6)}`;
const PASSWORD = 'crash-pile-secret';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startGateway(): Promise<TsProcess> {
  const child = spawnTs('apps/ocpp-gateway/src/main.ts', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.url,
    REDIS_URL: testEnv().redisUrl,
    BUS_PREFIX: prefix,
    PORT: String(await freePort()),
    OCPP_PORT: String(ocppPort),
    OCPP_HOST: '127.0.0.1',
    OCPP_REDIS_PREFIX: prefix,
    JWT_SECRET: 'crash-test-secret-0123456789abcdefghij',
    AUTH_REDIS_KEY_PREFIX: `${prefix}:auth:`,
  });
  await child.waitForLine(/OCPP gateway listening/, 90_000);
  return child;
}

beforeAll(async () => {
  db = await createTestDatabase();
  ocppPort = await freePort();
  const hash = pilePasswordHasherFromEnv().hash(PASSWORD);
  for (let i = 0; i < 4; i++)
    await db.dataSource.query(
      `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)`,
      [`CRASH-${i}`, hash],
    );
  await db.dataSource.query(
    `INSERT INTO id_tag (id_tag, status) SELECT 'BUS-C' || n, 'Accepted' FROM generate_series(0, 7) AS n`,
  );
  gateway = await startGateway();
}, 120_000);

afterAll(async () => {
  for (const pile of piles) await pile.stop();
  await gateway?.kill('SIGTERM');
  await db?.drop();
});

it('loses and duplicates no meter value when the gateway dies mid-stream', async () => {
  const sessions: SessionRecord[] = [];
  for (let i = 0; i < 4; i++) {
    const pile = new SimulatedPile({
      url: `ws://127.0.0.1:${ocppPort}/ocpp`,
      chargePointId: `CRASH-${i}`,
      password: PASSWORD,
      connectors: 2,
      meterIntervalMs: 150,
      timeScale: 60,
      reconnectDelayMs: 200,
      // Half the piles retransmit with the first attempt's message id, half with a new one.
      sameMessageIdOnRetry: i % 2 === 0,
    });
    await pile.start();
    piles.push(pile);
    for (const gun of [1, 2])
      sessions.push(await pile.startSession(gun, `BUS-C${i * 2 + gun - 1}`, { autoStop: false }));
  }
  await eventually(() => expect(sessions.every((s) => s.transactionId !== undefined)).toBe(true));
  await new Promise((r) => setTimeout(r, 2_000));

  const beforeKill = gateway!;
  await beforeKill.kill('SIGKILL');
  expect(beforeKill.child.signalCode).toBe('SIGKILL');
  await new Promise((r) => setTimeout(r, 500)); // the piles meter on, offline
  gateway = await startGateway();
  await eventually(() => expect(piles.every((p) => p.online)).toBe(true), 30_000);
  await new Promise((r) => setTimeout(r, 1_000));

  for (const pile of piles) for (const gun of [1, 2]) await pile.stopSession(gun, 'Local');
  for (const pile of piles) await pile.drained(30_000);

  for (const session of sessions) {
    const rows = await db.dataSource.query<{ value: string; n: number }[]>(
      // By the sample's key: the stop's Transaction.End reading may fall in the same millisecond as the
      // last periodic one, with the same value (the bus drew nothing in between).
      `SELECT value::text, count(*)::int AS n FROM ocpp_meter_sample
        WHERE transaction_id = $1 AND measurand = 'Energy.Active.Import.Register'
        GROUP BY sampled_at, context, value ORDER BY sampled_at, context`,
      [session.transactionId],
    );
    // Every reading after the start: the periodic ones and the stop's Transaction.End reading.
    const expected = session.readings.slice(1).map((r) => String(r.energyWh));
    expect(rows.map((r) => r.value)).toEqual(expected);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const [tx] = await db.dataSource.query(
      'SELECT meter_stop_wh::float8 AS meter_stop_wh FROM ocpp_transaction WHERE transaction_id = $1',
      [session.transactionId],
    );
    expect(tx).toEqual({ meter_stop_wh: session.meterStopWh });
  }
  expect(sessions.reduce((n, s) => n + s.readings.length, 0)).toBeGreaterThan(60);

  // Announced once: the samples in the outbox events are exactly the stored samples.
  const [{ announced, stored }] = await db.dataSource.query(
    `SELECT (SELECT coalesce(sum(jsonb_array_length(payload->'samples')), 0)::int FROM outbox_event
              WHERE type = 'meter-values.received') AS announced,
            (SELECT count(*)::int FROM ocpp_meter_sample WHERE charge_point_id LIKE 'CRASH-%') AS stored`,
  );
  expect(announced).toBe(stored);
}, 180_000);
