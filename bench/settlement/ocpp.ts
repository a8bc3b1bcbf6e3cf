/**
 * Settlement benchmark through the real gateway: StopTransaction (an OCPP call) -> settled order latency
 * (p50/p99/max) and settlements per second. The real OcppGateway runs in a child process
 * (bench/lib/gateway.process.ts: group-commit writers, transactional outbox, its outbox relay publishing onto the
 * bus); this process runs the settlement and occupation consumers exactly as bench.ts does (one pool of
 * 10 connections) and N piles as raw ocpp-rpc clients (one WebSocket each, HTTP Basic, ocpp1.6). Each
 * pile boots, then runs sessions one after another: StartTransaction (its own Accepted card),
 * `--meters` MeterValues spread over the session (energy, power, SoC), and StopTransaction when due:
 * stops are due at `--rate` per second over all piles, round robin, so starts and meter values keep
 * flowing while stops are measured. Latency runs from sending a StopTransaction to the commit of its
 * order row (LISTEN/NOTIFY, as in bench.ts); the gateway's part, the StopTransaction answer time
 * (sent -> answered: its row and outbox event committed), is reported separately.
 *
 * Usage: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/settlement/ocpp.ts \
 *          [--sessions 6000] [--piles 1000] [--rate 500] [--meters 3] [--drivers redis,kafka]
 *          [--partitions 8] [--occupation true|false] [--kafka-concurrency 8]
 * Needs DATABASE_URL / REDIS_URL / KAFKA_BROKERS (`. .var/infra.env`). Prints a table for docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { RPCClient } from 'ocpp-rpc';
import type { DataSource } from 'typeorm';
import { GATEWAY_NODE_OPTIONS } from '@voltdepot/server-ocpp-gateway';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';
import { startChild, stopChild, freePort } from '../lib/child';
import { makeBus, type Driver } from '../lib/bus';
import { arg, percentile } from '../lib/cli';
import { createBenchDatabase, deleteRedisKeys, driverLabel, seedPlan, SettlementConsumers } from './fixture';

const PASSWORD = 'bench-pile-secret';
const QUARTER_HOUR = 15 * 60_000;

type Pile = { id: string; tag: string; client: RPCClient };

type Options = { sessions: number; piles: number; rate: number; meters: number };

/** One measured stop: when it was due and sent (Date.now()), and how long the gateway took to answer it. */
type Stop = { key: string; dueAt: number; sentAt: number; answerMs: number };

type Run = {
  stops: Stop[];
  otherCalls: number[];
  failures: Map<string, number>;
};

type Result = {
  driver: string;
  scenario: string;
  settlements: number;
  missing: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  answerP50: number;
  answerP99: number;
  answerMax: number;
  otherP99: number;
  lateP99: number;
  loopP99: number;
  loopMax: number;
  writers: string;
  errors: string;
};

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const until = (at: number) => sleep(at - Date.now());
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Piles `BENCH-00000` … (active, each with its own hash of the shared password, stored as the api stores
 * it, under the key the gateway child reads from the same environment) and one Accepted card each.
 */
async function seedPiles(ds: DataSource, piles: number): Promise<void> {
  const passwords = pilePasswordHasherFromEnv();
  const ids = Array.from({ length: piles }, (_, n) => `BENCH-${String(n).padStart(5, '0')}`);
  await ds.query(
    `INSERT INTO pile_registry (charge_point_id, state, password_hash)
     SELECT id, 'active', hash FROM unnest($1::text[], $2::text[]) AS t(id, hash)`,
    [ids, ids.map(() => passwords.hash(PASSWORD))],
  );
  await ds.query(
    `INSERT INTO id_tag (id_tag, status)
     SELECT 'BENCH-TAG-' || lpad(n::text, 5, '0'), 'Accepted' FROM generate_series(0, $1 - 1) AS n`,
    [piles],
  );
}

async function connectPiles(port: number, count: number, failures: Map<string, number>): Promise<Pile[]> {
  const piles: Pile[] = [];
  for (let first = 0; first < count; first += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, count - first) }, async (_, i) => {
        const n = String(first + i).padStart(5, '0');
        const client = new RPCClient({
          endpoint: `ws://127.0.0.1:${port}/ocpp`,
          identity: `BENCH-${n}`,
          password: PASSWORD,
          protocols: ['ocpp1.6'],
          strictMode: false,
          reconnect: false,
        } as ConstructorParameters<typeof RPCClient>[0]);
        try {
          await client.connect();
          await client.call('BootNotification', {
            chargePointVendor: 'Voltdepot',
            chargePointModel: 'Bench-150',
            chargePointSerialNumber: `BENCH-${n}`,
          });
          piles.push({ id: `BENCH-${n}`, tag: `BENCH-TAG-${n}`, client });
        } catch (error) {
          countFailure(failures, 'connect/boot', error);
          await client.close({ force: true }).catch(() => undefined);
        }
      }),
    );
  }
  return piles.sort((a, b) => a.id.localeCompare(b.id));
}

function countFailure(failures: Map<string, number>, what: string, error: unknown): void {
  const key = `${what}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 100);
  failures.set(key, (failures.get(key) ?? 0) + 1);
}

/**
 * Sessions `first` … `first + count - 1` (the number fixes the card's meter start and the pile-side
 * timestamps, a quarter-hour apart and crossing price bands as in bench.ts). Session j runs on pile
 * j mod piles; its stop is due at `t0 + j / rate`. A pile starts its next session once the previous stop
 * is answered and spreads the meter values over the time left until that session's stop is due.
 */
async function runSessions(piles: Pile[], first: number, count: number, rate: number, meters: number) {
  const run: Run = { stops: [], otherCalls: [], failures: new Map() };
  const interval = 1000 / rate;
  const cycle = piles.length * interval; // time between two stops of one pile
  const t0 = Date.now() + cycle;
  const timed = async (pile: Pile, method: string, params: unknown) => {
    const started = performance.now();
    const response = await pile.client.call(method, params);
    run.otherCalls.push(performance.now() - started);
    return response;
  };
  await Promise.all(
    piles.map(async (pile, p) => {
      for (let j = p; j < count; j += piles.length) {
        const seq = first + j;
        const dueAt = t0 + j * interval;
        const beginAt = dueAt - cycle;
        await until(beginAt);
        const startAt = Date.parse('2026-11-20T10:00:00Z') + (seq % 96) * QUARTER_HOUR;
        const meterStart = 1_000_000 + seq * 10;
        const wh = (i: number) => meterStart + i * 24_513; // 98 kW
        try {
          const started = (await timed(pile, 'StartTransaction', {
            connectorId: 1,
            idTag: pile.tag,
            meterStart,
            timestamp: new Date(startAt).toISOString(),
          })) as { transactionId: number };
          const transactionId = started.transactionId;
          for (let i = 1; i <= meters; i++) {
            await until(beginAt + (i * cycle) / (meters + 1));
            const at = new Date(startAt + i * QUARTER_HOUR).toISOString();
            await timed(pile, 'MeterValues', {
              connectorId: 1,
              transactionId,
              meterValue: [
                {
                  timestamp: at,
                  sampledValue: [
                    { value: String(wh(i)), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
                    { value: '98000', measurand: 'Power.Active.Import', unit: 'W' },
                    { value: String(30 + i * 10), measurand: 'SoC', unit: 'Percent' },
                  ],
                },
              ],
            });
          }
          await until(dueAt);
          const sentAt = Date.now();
          const sent = performance.now();
          await pile.client.call('StopTransaction', {
            transactionId,
            idTag: pile.tag,
            meterStop: wh(meters + 1),
            timestamp: new Date(startAt + (meters + 1) * QUARTER_HOUR).toISOString(),
            reason: 'EVDisconnected',
          });
          run.stops.push({
            key: `${pile.id}/${transactionId}`,
            dueAt,
            sentAt,
            answerMs: performance.now() - sent,
          });
        } catch (error) {
          countFailure(run.failures, 'session', error);
        }
      }
    }),
  );
  return run;
}

/** Waits until every stop's order has committed, or `timeoutMs` passed; returns the commit times found. */
async function commitsOf(consumers: SettlementConsumers, stops: Stop[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stops.some((s) => !consumers.committed.has(s.key))) await sleep(50);
  return stops.map((s) => consumers.committed.get(s.key));
}

/** Warnings and errors the gateway logged (pino levels ≥ 40), then the log file is removed. */
function gatewayLogProblems(logFile: string): string {
  try {
    const counts = new Map<string, number>();
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { level: number; msg?: string };
      if (entry.level >= 40) counts.set(entry.msg ?? '?', (counts.get(entry.msg ?? '?') ?? 0) + 1);
    }
    return [...counts].map(([msg, n]) => `gateway ${n}× ${msg}`).join('; ');
  } catch {
    return '';
  } finally {
    rmSync(logFile, { force: true });
  }
}

async function runDriver(
  driver: Driver,
  options: Options,
  bus: { prefix: string; partitions: number; kafkaConcurrency: number; withOccupation: boolean },
): Promise<Result> {
  const db = await createBenchDatabase();
  await seedPlan(db.dataSource);
  await seedPiles(db.dataSource, options.piles);
  const consumerBus = makeBus(driver, { ...bus, clientId: 'bench-settlement' });
  const consumers = new SettlementConsumers(db, consumerBus, bus.withOccupation);
  const logFile = join(tmpdir(), `voltdepot-settlement-gateway-${randomUUID().slice(0, 8)}.log`);
  let piles: Pile[] = [];
  let child: Awaited<ReturnType<typeof startChild>> | undefined;
  try {
    await consumers.start();
    const port = await freePort();
    child = await startChild(
      'bench/lib/gateway.process.ts',
      {
        BENCH_NAME: 'bench-settlement-gateway',
        BENCH_HEARTBEAT_S: '300',
        BENCH_DB_URL: db.url,
        BENCH_DRIVER: driver,
        BENCH_PREFIX: bus.prefix,
        BENCH_PARTITIONS: String(bus.partitions),
        BENCH_PORT: String(port),
        BENCH_LOG_FILE: logFile,
      },
      { nodeArgs: GATEWAY_NODE_OPTIONS },
    );
    const connectFailures = new Map<string, number>();
    piles = await connectPiles(port, options.piles, connectFailures);
    if (!piles.length) throw new Error(`no pile connected: ${[...connectFailures.keys()].join('; ')}`);

    // Warm-up (not measured): topics exist, the group is assigned, caches and the plan are warm.
    const warmPiles = piles.slice(0, 50);
    const warm = await runSessions(warmPiles, 0, warmPiles.length, 200, options.meters);
    await commitsOf(consumers, warm.stops, 120_000);

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const run = await runSessions(piles, warmPiles.length, options.sessions, options.rate, options.meters);
    const commits = await commitsOf(consumers, run.stops, 120_000);
    loop.disable();

    const latencies: number[] = [];
    let lastCommit = 0;
    run.stops.forEach((stop, i) => {
      const at = commits[i];
      if (at === undefined) return;
      latencies.push(at - stop.sentAt);
      lastCommit = Math.max(lastCommit, at);
    });
    const firstSent = Math.min(...run.stops.map((s) => s.sentAt));
    const seconds = (lastCommit - firstSent) / 1000;
    const sorted = latencies.sort((a, b) => a - b);
    const answers = run.stops.map((s) => s.answerMs).sort((a, b) => a - b);
    const late = run.stops.map((s) => s.sentAt - s.dueAt).sort((a, b) => a - b);
    const others = run.otherCalls.sort((a, b) => a - b);
    const stats = await stopChild(child);
    child = undefined;
    const writers = (['start', 'meter', 'stop'] as const)
      .map((w) => {
        const batches = stats?.[`${w}Batches`];
        return batches ? `${w} ${(stats[`${w}Calls`] / batches).toFixed(1)}` : `${w} –`;
      })
      .join(', ');
    const errors = [...connectFailures, ...warm.failures, ...run.failures]
      .map(([key, n]) => `${n}× ${key}`)
      .concat(gatewayLogProblems(logFile) || [])
      .join('; ');
    return {
      driver: driverLabel(driver, bus.partitions, bus.kafkaConcurrency),
      scenario: `OCPP stops (${options.rate}/s, ${piles.length} piles, ${options.meters} meter values)`,
      settlements: sorted.length,
      missing: options.sessions - sorted.length,
      seconds: round(seconds),
      rate: Math.round(sorted.length / seconds),
      p50: Math.round(percentile(sorted, 50)),
      p99: Math.round(percentile(sorted, 99)),
      max: Math.round(sorted[sorted.length - 1] ?? NaN),
      answerP50: round(percentile(answers, 50)),
      answerP99: round(percentile(answers, 99)),
      answerMax: Math.round(answers[answers.length - 1] ?? NaN),
      otherP99: round(percentile(others, 99)),
      lateP99: Math.round(percentile(late, 99)),
      loopP99: Math.round(loop.percentile(99) / 1e6),
      loopMax: Math.round(loop.max / 1e6),
      writers,
      errors,
    };
  } finally {
    await Promise.all(piles.map((p) => p.client.close({ force: true }).catch(() => undefined)));
    if (child) await stopChild(child);
    rmSync(logFile, { force: true });
    await consumers.stop();
    await consumerBus.close();
    await db.drop();
  }
}

async function main(): Promise<void> {
  const options: Options = {
    sessions: Number(arg('sessions', '6000')),
    piles: Number(arg('piles', '1000')),
    rate: Number(arg('rate', '500')),
    meters: Number(arg('meters', '3')),
  };
  const drivers = arg('drivers', 'redis,kafka').split(',') as Driver[];
  const partitions = Number(arg('partitions', '8'));
  const withOccupation = arg('occupation', 'true') !== 'false';
  const kafkaConcurrency = Number(arg('kafka-concurrency', '8'));
  if (options.piles > 99_999 || options.piles < 50) throw new Error('--piles must be 50 … 99999');
  const prefix = `vdbench-settle-ocpp-${randomUUID().slice(0, 6)}`;
  const loadAtStart = loadavg()[0];
  const results: Result[] = [];
  try {
    for (const driver of drivers)
      results.push(
        await runDriver(driver, options, { prefix, partitions, kafkaConcurrency, withOccupation }),
      );
  } finally {
    await deleteRedisKeys(prefix);
  }
  console.log(
    `\nSettlement benchmark through the OCPP gateway, ${new Date().toISOString()}, node ${process.version}, ` +
      `occupation consumer ${withOccupation ? 'on' : 'off'}, ` +
      `1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
  );
  console.table(results.map(({ errors: _errors, ...r }) => r));
  console.log(
    '| driver | scenario | settlements | settlements/s | p50 ms | p99 ms | max ms | StopTransaction answered p50 / p99 / max ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.driver} | ${r.scenario} | ${r.settlements} | ${r.rate} | ${r.p50} | ${r.p99} | ${r.max} | ` +
        `${r.answerP50} / ${r.answerP99} / ${r.answerMax} |`,
    );
  for (const r of results) {
    console.log(
      `${r.driver}: ${r.missing} sessions without an order; stops sent late p99 ${r.lateP99} ms; ` +
        `start/meter answered p99 ${r.otherP99} ms; calls per commit ${r.writers}; ` +
        `bench event-loop delay p99 ${r.loopP99} / max ${r.loopMax} ms`,
    );
    if (r.errors) console.log(`${r.driver} errors: ${r.errors}`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
