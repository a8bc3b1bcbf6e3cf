/**
 * The living demo depot: seeds (idempotently) two bus depots' piles, bus cards and a five-band price plan,
 * then runs simulated piles that charge buses the way a depot does in the evening, so a newcomer sees guns
 * charging, orders appearing and stop notices within a minute of `npm start`.
 *
 *   node -r @swc-node/register scripts/demo-depot.ts [--seed-only]
 *
 * Environment: DATABASE_URL (required), OCPP_URL (ws://127.0.0.1:9000/ocpp), DEMO_TIME_SCALE (120: two
 * simulated hours per real minute), DEMO_ABNORMAL_RATE (0.08), DEMO_FAULT_RATE (0.03).
 */
import argon2 from 'argon2';
import { createDataSource } from '@voltdepot/server-database';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import type { StopReason } from '@voltdepot/shared-ocpp';
import type { DataSource } from 'typeorm';

/** Two depots of 10 piles with 2 guns each: 40 guns for 40 buses. */
export const DEMO_DEPOTS = [
  { code: 'A', name: '东郊公交充电站 East depot' },
  { code: 'B', name: '西站公交充电站 West depot' },
];
export const PILES_PER_DEPOT = 10;
export const DEMO_PILE_PASSWORD = 'demo-pile-password';
export const pileIds = (): string[] =>
  DEMO_DEPOTS.flatMap((d) =>
    Array.from({ length: PILES_PER_DEPOT }, (_, i) => `DEPOT-${d.code}-${String(i + 1).padStart(2, '0')}`),
  );
export const busCards = (): string[] =>
  Array.from({ length: 40 }, (_, i) => `BUS${String(i + 1).padStart(4, '0')}`);

/** Stage type, from, to, electricity and service fee in 1/10,000 yuan per kWh. */
const DEMO_PLAN: [string, number, number, number, number][] = [
  ['deepValley', 0, 360, 2100, 4000],
  ['valley', 360, 480, 3200, 4000],
  ['normal', 480, 600, 6400, 6000],
  ['peak', 600, 1020, 8523, 8000],
  ['sharp', 1020, 1140, 11800, 8000],
  ['normal', 1140, 1380, 6400, 6000],
  ['valley', 1380, 1440, 3200, 4000],
];

export async function seedDemoDepot(dataSource: DataSource): Promise<void> {
  await dataSource.transaction(async (m) => {
    const existing = await m.query(`SELECT id FROM price_plan WHERE is_default`);
    if (!existing.length) {
      const [{ id }] = await m.query(
        `INSERT INTO price_plan (name, is_default) VALUES ('公交场站分时电价 Depot time-of-use tariff', true) RETURNING id`,
      );
      for (const [seq, [type, from, to, electricity, service]] of DEMO_PLAN.entries()) {
        await m.query(
          `INSERT INTO price_plan_stage (plan_id, seq, stage_type, start_minute, end_minute, electricity_price, service_fee)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [id, seq, type, from, to, electricity, service],
        );
      }
    }
    const hash = await argon2.hash(DEMO_PILE_PASSWORD, { type: argon2.argon2id });
    for (const id of pileIds()) {
      await m.query(
        `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)
         ON CONFLICT (charge_point_id) DO NOTHING`,
        [id, hash],
      );
    }
    for (const card of busCards()) {
      await m.query(
        `INSERT INTO id_tag (id_tag, status) VALUES ($1, 'Accepted') ON CONFLICT (id_tag) DO NOTHING`,
        [card],
      );
    }
  });
}

const ABNORMAL: StopReason[] = ['EmergencyStop', 'PowerLoss', 'Other'];
const FAULTS = ['GroundFailure', 'HighTemperature', 'OverCurrentFailure', 'ConnectorLockFailure'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (min: number, max: number) => min + Math.random() * (max - min);

/** One gun's evening: buses arrive one after another, charge to their target, leave; now and then trouble. */
async function runGun(pile: SimulatedPile, connectorId: number, cards: string[], options: SimulationOptions) {
  // Buses return to the depot over the first half minute, not all at once.
  await sleep(between(0, 30_000));
  let next = 0;
  while (!options.stopped()) {
    if (!pile.online) {
      await sleep(2_000);
      continue;
    }
    if (Math.random() < options.faultRate) {
      await pile
        .reportFault(connectorId, FAULTS[Math.floor(Math.random() * FAULTS.length)])
        .catch(() => undefined);
      await sleep(between(10_000, 30_000));
      await pile.clearFault(connectorId).catch(() => undefined);
      continue;
    }
    const card = cards[next++ % cards.length];
    const session = await pile
      .startSession(connectorId, card, {
        startSoc: Math.round(between(15, 45)),
        targetSoc: Math.round(between(85, 100)),
        capacityWh: Math.round(between(280, 420)) * 1000,
      })
      .catch(() => undefined);
    if (!session) {
      await sleep(5_000);
      continue;
    }
    // Some sessions end abnormally part-way; the rest stop by themselves when the bus is full.
    const abnormalAfter = Math.random() < options.abnormalRate ? between(10_000, 40_000) : Infinity;
    const startedAt = Date.now();
    while (!session.stoppedAt && !options.stopped()) {
      if (Date.now() - startedAt > abnormalAfter) {
        await pile
          .stopSession(connectorId, ABNORMAL[Math.floor(Math.random() * ABNORMAL.length)])
          .catch(() => undefined);
        break;
      }
      await sleep(1_000);
    }
    // The bus leaves; the next one pulls in after a while.
    await sleep(between(5_000, 20_000));
  }
}

type SimulationOptions = { faultRate: number; abnormalRate: number; stopped: () => boolean };

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required');
  const dataSource = createDataSource({ url, poolSize: 2, applicationName: 'voltdepot-demo' });
  await dataSource.initialize();
  try {
    await seedDemoDepot(dataSource);
  } finally {
    await dataSource.destroy();
  }
  console.log(
    `demo depot seeded: ${pileIds().length} piles, ${busCards().length} bus cards, default price plan`,
  );
  if (process.argv.includes('--seed-only')) return;

  const ocppUrl = process.env['OCPP_URL'] ?? 'ws://127.0.0.1:9000/ocpp';
  const timeScale = Number(process.env['DEMO_TIME_SCALE'] ?? 120);
  let stopping = false;
  const options: SimulationOptions = {
    faultRate: Number(process.env['DEMO_FAULT_RATE'] ?? 0.03),
    abnormalRate: Number(process.env['DEMO_ABNORMAL_RATE'] ?? 0.08),
    stopped: () => stopping,
  };
  const cards = busCards();
  const piles = pileIds().map(
    (chargePointId) =>
      new SimulatedPile({
        url: ocppUrl,
        chargePointId,
        password: DEMO_PILE_PASSWORD,
        connectors: 2,
        vendor: 'Voltdepot',
        model: 'DC-240',
        timeScale,
        meterIntervalMs: 5_000,
        maxPowerW: 120_000,
        bootRetryMs: 5_000,
        reconnectDelayMs: 3_000,
      }),
  );
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      piles.map((p) =>
        p
          .drained(5_000)
          .catch(() => undefined)
          .then(() => p.stop()),
      ),
    );
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  await Promise.all(
    piles.map((p) =>
      p.start().catch((error: Error) => console.error(`${p.chargePointId}: ${error.message}`)),
    ),
  );
  console.log(
    `demo simulation running: ${piles.length} piles x 2 guns against ${ocppUrl} (time x${timeScale})`,
  );
  await Promise.all(
    piles.flatMap((pile, p) =>
      // Each gun serves its own bus of the 40, so one card never charges twice at once.
      [1, 2].map((gun) => runGun(pile, gun, [cards[(p * 2 + gun - 1) % cards.length]], options)),
    ),
  );
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
