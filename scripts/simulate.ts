/**
 * Simulated OCPP 1.6J piles against a running gateway.
 *
 *   node -r @swc-node/register scripts/simulate.ts --url ws://127.0.0.1:9000/ocpp --piles 5 --guns 2 \
 *     [--prefix SIM-] [--password secret | --password-template 'pw-{id}'] [--id-tags BUS-001,BUS-002]
 *     [--sessions 1] [--time-scale 60] [--meter-interval-ms 1000] [--max-power-w 150000]
 *     [--abnormal-rate 0.1] [--duration-s 0] [--register]
 *
 * Each gun charges `--sessions` buses one after another (random start SoC 15-45 %, target 85-100 %);
 * a share `--abnormal-rate` of sessions ends with an abnormal reason instead of EVDisconnected.
 * `--register` (needs DATABASE_URL) first registers the piles (active, argon2id password) and the id tags.
 * Prints one JSON line per event; on exit (all sessions done, --duration-s elapsed, or Ctrl-C) prints
 * `{"summary": [...]}` with the simulator's own record of every session, for settlement checks.
 */
import argon2 from 'argon2';
import { createDataSource } from '@voltdepot/server-database';
import { SimulatedPile, type SessionRecord } from '@voltdepot/server-ocpp-simulator';
import type { StopReason } from '@voltdepot/shared-ocpp';

function arg(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return undefined;
  const value = process.argv[index + 1];
  return value === undefined || value.startsWith('--') ? 'true' : value;
}

function num(name: string, fallback: number): number {
  const raw = arg(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got '${raw}'`);
  return value;
}

const out = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ABNORMAL: StopReason[] = ['EmergencyStop', 'PowerLoss', 'Other', 'UnlockCommand'];

async function register(ids: string[], passwordOf: (id: string) => string, idTags: string[]): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('--register needs DATABASE_URL');
  const dataSource = createDataSource({ url, poolSize: 2, applicationName: 'voltdepot-simulate' });
  await dataSource.initialize();
  try {
    for (const id of ids) {
      await dataSource.query(
        `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)
         ON CONFLICT (charge_point_id) DO UPDATE SET state = 'active', password_hash = EXCLUDED.password_hash`,
        [id, await argon2.hash(passwordOf(id), { type: argon2.argon2id })],
      );
    }
    for (const tag of idTags) {
      await dataSource.query(
        `INSERT INTO id_tag (id_tag, status) VALUES ($1, 'Accepted') ON CONFLICT (id_tag) DO NOTHING`,
        [tag],
      );
    }
  } finally {
    await dataSource.destroy();
  }
}

async function main(): Promise<void> {
  const url = arg('url') ?? 'ws://127.0.0.1:9000/ocpp';
  const count = num('piles', 1);
  const guns = num('guns', 2);
  const prefix = arg('prefix') ?? 'SIM-';
  const sessionsPerGun = num('sessions', 1);
  const abnormalRate = num('abnormal-rate', 0.1);
  const durationS = num('duration-s', 0);
  const template = arg('password-template') ?? arg('password') ?? 'pw-{id}';
  const passwordOf = (id: string) => template.replace('{id}', id);
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(3, '0')}`);
  const idTags = (
    arg('id-tags') ??
    Array.from({ length: count * guns }, (_, i) => `BUS-${String(i + 1).padStart(3, '0')}`).join(',')
  )
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

  if (arg('register')) await register(ids, passwordOf, idTags);

  const piles = ids.map(
    (id) =>
      new SimulatedPile({
        url,
        chargePointId: id,
        password: passwordOf(id),
        connectors: guns,
        timeScale: num('time-scale', 60),
        meterIntervalMs: num('meter-interval-ms', 1000),
        maxPowerW: num('max-power-w', 150_000),
        bootRetryMs: 5_000,
        log: (line) => out({ log: line }),
      }),
  );

  let stopping = false;
  const finish = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const pile of piles) {
      await pile.drained(5_000).catch(() => undefined);
      await pile.stop();
    }
    const summary = piles.flatMap((pile) =>
      pile.sessions.map((s: SessionRecord) => ({ chargePointId: pile.chargePointId, ...s })),
    );
    out({ summary });
    process.exit(code);
  };
  process.on('SIGINT', () => void finish(0));
  process.on('SIGTERM', () => void finish(0));
  if (durationS > 0) setTimeout(() => void finish(0), durationS * 1000).unref();

  await Promise.all(
    piles.map(async (pile) => {
      pile.on('transactionStarted', (s: SessionRecord) =>
        out({
          event: 'started',
          chargePointId: pile.chargePointId,
          connectorId: s.connectorId,
          transactionId: s.transactionId,
        }),
      );
      pile.on('transactionStopped', (s: SessionRecord) =>
        out({
          event: 'stopped',
          chargePointId: pile.chargePointId,
          connectorId: s.connectorId,
          transactionId: s.transactionId,
          energyWh: s.energyWh,
          reason: s.reason,
        }),
      );
      await pile.start();
      out({ event: 'booted', chargePointId: pile.chargePointId, status: pile.registrationStatus });
    }),
  );
  out({ event: 'ready', piles: piles.length, guns });

  let tagIndex = 0;
  const runGun = async (pile: SimulatedPile, connectorId: number) => {
    for (let n = 0; n < sessionsPerGun && !stopping; n++) {
      const idTag = idTags[tagIndex++ % idTags.length];
      const abnormal = Math.random() < abnormalRate;
      const session = await pile.startSession(connectorId, idTag, {
        startSoc: 15 + Math.random() * 30,
        targetSoc: 85 + Math.random() * 15,
        autoStop: !abnormal,
      });
      if (abnormal) {
        await sleep(500 + Math.random() * 2_000);
        await pile.stopSession(connectorId, ABNORMAL[Math.floor(Math.random() * ABNORMAL.length)]);
      }
      while (!session.stoppedAt && !stopping) await sleep(100);
      await sleep(200);
    }
  };
  if (sessionsPerGun > 0) {
    await Promise.all(piles.flatMap((pile) => Array.from({ length: guns }, (_, i) => runGun(pile, i + 1))));
    await finish(0);
  }
}

main().catch((error) => {
  out({ error: (error as Error).message });
  process.exit(1);
});
