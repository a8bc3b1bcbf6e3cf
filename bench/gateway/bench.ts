/**
 * OCPP gateway benchmark: N simulated piles (a lean OCPP-J client, one WebSocket each) against the real
 * OcppGateway in a child process, then the same load against a bare ocpp-rpc RPCServer (also a child) as
 * the ceiling. Each pile connects (HTTP Basic, ocpp1.6), boots, then sends MeterValues every 10 s and
 * Heartbeat every 60 s (random phase, ±10 % jitter); after the steady window a share of piles sends a
 * StartTransaction/StopTransaction burst (each of those piles `--burst-cycles` start/stop pairs back to back,
 * so the burst lasts long enough for its rate to be measured rather than a one-second blip; each cycle is a
 * StartTransaction, a MeterValues of the transaction and a StopTransaction). Measures connections held,
 * messages/s, client-side call latency, gateway RSS per connection and gateway CPU (from /proc of the child),
 * and for the burst the durable transaction calls (Start, MeterValues, Stop: each answered only once
 * committed) per second and per CPU-second of the gateway and PostgreSQL together. Piles are registered
 * as production registers them (a password each, the keyed hash: see fixture.ts); the reconnect storm is
 * bench/gateway/storm.ts.
 *
 * Usage: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/gateway/bench.ts
 *   [--piles 5000] [--seconds 60] [--batch 200] [--burst-share 0.2] [--burst-cycles 5] [--targets gateway[,bare]]
 * Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL as for the integration tests). BENCH_NODE_ARGS is
 * passed to the server processes' node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile them).
 * Prints a table and the machine's load (load average, `top`) before and after; copy the figures into
 * docs/benchmarks.md.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { GATEWAY_NODE_OPTIONS } from '@voltdepot/server-ocpp-gateway';
import { cpuSecondsOf, cpuShares, freePort, procUsage, readCpu, startChild, stopChild } from '../lib/child';
import { arg, percentile, printMetricTable } from '../lib/cli';
import { deleteRedisKeys } from '../lib/redis-keys';
import {
  createBenchDatabase,
  machineLoad,
  pileId,
  postgresPids,
  REDIS_URL,
  seedPiles,
  type BenchCredentials,
  type BenchDatabase,
} from './fixture';
import { LeanPile } from './lean-pile';

type Target = 'gateway' | 'bare';

type Pile = { client: LeanPile; timers: NodeJS.Timeout[] };

type Stats = {
  latencies: number[];
  ok: number;
  failed: number;
  inFlight: number;
  errors: Map<string, number>;
  /** Calls answered, by action. */
  answered: Map<string, number>;
};

type Result = {
  target: Target;
  piles: number;
  connected: number;
  connectSeconds: number;
  held: number;
  steadyRate: number;
  steadyCalls: number;
  steadyFailed: number;
  steadyP50: number;
  steadyP99: number;
  steadyMax: number;
  burstCalls: number;
  burstUnanswered: number;
  steadyBacklog: number;
  burstFailed: number;
  burstRate: number;
  burstP50: number;
  burstP99: number;
  /** Durable transaction calls answered in the burst window (the burst's and the steady MeterValues) per second. */
  durableRate: number;
  /** The same calls per CPU-second of the gateway and PostgreSQL together, and those CPU-seconds. */
  durablePerCpuSecond: number;
  gatewayCpuSeconds: number;
  postgresCpuSeconds: number;
  rssBaseMiB: number;
  rssConnectedMiB: number;
  rssEndMiB: number;
  kibPerConnection: number;
  cpuSteady: number;
  cpuBurst: number;
  driverCpu: number;
  driverCpuBurst: number;
  /** PostgreSQL (all its processes, whichever database they serve) in % of a core, and the machine's idle share. */
  postgresSteady: number;
  postgresBurst: number;
  idleSteady: number;
  idleBurst: number;
  /** The load generator's own event-loop delay in the steady window (ms): a stall here delays answers it measures. */
  driverLoopP99: number;
  driverLoopMax: number;
  /** MeterValues calls per database transaction (gateway only). */
  meterCallsPerCommit?: number;
  /** Per writer: calls per commit and the mean time a batch took (ms). */
  writers?: string;
  /** The gateway's own latency of the steady calls in the steady window (receipt to answer), from its histogram. */
  served?: string;
  errors: string;
};

/** Processes whose CPU the table shows besides the server's and the load generator's (by command name). */
const MACHINE_COMMANDS = ['postgres'];

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const jitter = (ms: number) => ms * (0.9 + Math.random() * 0.2);

function newStats(): Stats {
  return { latencies: [], ok: 0, failed: 0, inFlight: 0, errors: new Map(), answered: new Map() };
}

/** Calls that are answered only once what they carry is committed: StartTransaction, MeterValues, StopTransaction. */
const DURABLE_ACTIONS = ['StartTransaction', 'MeterValues', 'StopTransaction'];

/** Asks the gateway child for its cumulative latency buckets of the steady calls (it answers on stdout). */
async function bucketsOf(child: ChildProcess): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      child.stdout?.off('data', onData);
      reject(new Error('the gateway did not report its latency buckets'));
    }, 10_000);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n').find((l) => l.startsWith('{"buckets"'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve((JSON.parse(line) as { buckets: Record<string, number> }).buckets);
    };
    child.stdout?.on('data', onData);
    child.kill('SIGUSR2');
  });
}

/** p50 / p99 (as bucket bounds) and the share over 50 ms of the calls answered between two snapshots. */
function servedLatency(before: Record<string, number>, after: Record<string, number>): string {
  const buckets = Object.keys(after)
    .map((le) => ({ le: Number(le), count: after[le] - (before[le] ?? 0) }))
    .sort((a, b) => a.le - b.le);
  const total = buckets.at(-1)?.count ?? 0;
  if (!total) return '–';
  const bound = (q: number) => {
    const le = buckets.find((b) => b.count >= q * total)?.le ?? Infinity;
    return Number.isFinite(le) ? `≤ ${le * 1000}` : '> 10,000';
  };
  const within50 = buckets.find((b) => b.le >= 0.05)?.count ?? total;
  return `${bound(0.5)} / ${bound(0.99)} ms, ${(((total - within50) / total) * 100).toFixed(2)} % over 50 ms`;
}

function recordError(stats: Stats, error: unknown): void {
  stats.failed++;
  const key = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 80) : String(error);
  stats.errors.set(key, (stats.errors.get(key) ?? 0) + 1);
}

async function timedCall(pile: Pile, stats: Stats, method: string, params: unknown): Promise<unknown> {
  const started = performance.now();
  stats.inFlight++;
  try {
    const response = await pile.client.call(method, params);
    stats.latencies.push(performance.now() - started);
    stats.ok++;
    stats.answered.set(method, (stats.answered.get(method) ?? 0) + 1);
    return response;
  } catch (error) {
    recordError(stats, error);
    return undefined;
  } finally {
    stats.inFlight--;
  }
}

function meterValues(connectorId: number, transactionId?: number) {
  return {
    connectorId,
    ...(transactionId === undefined ? {} : { transactionId }),
    meterValue: [
      {
        timestamp: new Date().toISOString(),
        sampledValue: [
          {
            value: String(Math.floor(Math.random() * 100_000)),
            measurand: 'Energy.Active.Import.Register',
            unit: 'Wh',
          },
          { value: String(Math.floor(Math.random() * 150_000)), measurand: 'Power.Active.Import', unit: 'W' },
        ],
      },
    ],
  };
}

async function runTarget(
  target: Target,
  options: {
    piles: number;
    seconds: number;
    batch: number;
    burstShare: number;
    /** Start/MeterValues/Stop cycles each burst pile sends back to back. */
    burstCycles: number;
    credentials?: BenchCredentials;
    db?: BenchDatabase;
    prefix: string;
  },
): Promise<Result> {
  const port = await freePort();
  const logFile = join(tmpdir(), `voltdepot-gateway-bench-${randomUUID().slice(0, 8)}.log`);
  const child =
    target === 'gateway'
      ? await startChild(
          'bench/lib/gateway.process.ts',
          {
            BENCH_PORT: String(port),
            BENCH_DB_URL: options.db!.url,
            BENCH_PREFIX: options.prefix,
            BENCH_LOG_FILE: logFile,
            ...options.credentials!.env,
          },
          { nodeArgs: GATEWAY_NODE_OPTIONS },
        )
      : await startChild('bench/gateway/bare-server.process.ts', { BENCH_PORT: String(port) });
  // The child is `bash -c '...; exec node'`, so its pid is the node process.
  const pid = child.pid!;
  const piles: Pile[] = [];
  const connectErrors = newStats();
  let result: Result | undefined;
  try {
    await sleep(2_000);
    const base = procUsage(pid);

    // Connect and boot in batches.
    const connectStarted = performance.now();
    for (let first = 0; first < options.piles; first += options.batch) {
      const batch = Array.from({ length: Math.min(options.batch, options.piles - first) }, (_, i) => {
        const client = new LeanPile(pileId(first + i), {
          url: `ws://127.0.0.1:${port}/ocpp`,
          // The bare server checks no password.
          password: options.credentials?.passwordOf(first + i) ?? 'none',
        });
        const pile: Pile = { client, timers: [] };
        return pile;
      });
      await Promise.all(
        batch.map(async (pile) => {
          try {
            await pile.client.connect();
            piles.push(pile);
            await pile.client.call('BootNotification', {
              chargePointVendor: 'Voltdepot',
              chargePointModel: 'Bench-150',
              chargePointSerialNumber: pile.client.id,
            });
          } catch (error) {
            recordError(connectErrors, error);
          }
        }),
      );
    }
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    await sleep(3_000); // let the gateway settle (message log flush, relay) before measuring memory
    const connected = procUsage(pid);

    // Steady load: MeterValues every 10 s, Heartbeat every 60 s, random phase, ±10 % jitter.
    let steady: Stats | undefined;
    const warm = newStats();
    const current = () => steady ?? warm;
    const every = (pile: Pile, periodMs: number, send: () => Promise<unknown>) => {
      const slot = pile.timers.length; // one timer per kind, re-armed in place
      const tick = () => {
        if (!pile.client.open) return;
        void send();
        pile.timers[slot] = setTimeout(tick, jitter(periodMs));
      };
      pile.timers.push(setTimeout(tick, Math.random() * periodMs));
    };
    for (const pile of piles) {
      every(pile, 10_000, () => timedCall(pile, current(), 'MeterValues', meterValues(1)));
      every(pile, 60_000, () => timedCall(pile, current(), 'Heartbeat', {}));
    }
    await sleep(10_000); // one full MeterValues period to reach the steady rate
    steady = newStats();
    const servedBefore = target === 'gateway' ? await bucketsOf(child) : undefined;
    const steadyStarted = performance.now();
    const steadyCpu = procUsage(pid).cpu;
    const machineSteady = readCpu(MACHINE_COMMANDS);
    const driverCpuStart = process.cpuUsage();
    const driverLoop = monitorEventLoopDelay({ resolution: 10 });
    driverLoop.enable();
    await sleep(options.seconds * 1000);
    const steadySeconds = (performance.now() - steadyStarted) / 1000;
    const steadyDone = steady;
    const steadyBacklog = steadyDone.inFlight + warm.inFlight;
    steady = newStats(); // calls after the window no longer count
    const afterSteady = procUsage(pid);
    const machineSteadyEnd = readCpu(MACHINE_COMMANDS);
    const servedAfter = servedBefore ? await bucketsOf(child) : undefined;
    const driverCpu = process.cpuUsage(driverCpuStart);
    driverLoop.disable();

    // Burst: a share of piles start and stop a transaction at once (the steady load keeps running).
    const burst = newStats();
    const burstPiles = piles
      .filter((p) => p.client.open)
      .slice(0, Math.floor(piles.length * options.burstShare));
    // The steady load's MeterValues answered during the burst are durable calls of the burst window too.
    const duringBurst = newStats();
    steady = duringBurst;
    const machineBurst = readCpu(MACHINE_COMMANDS);
    const postgresAtStart = options.db ? await postgresPids(options.db.url) : undefined;
    const postgresBurstStart = cpuSecondsOf([
      ...(postgresAtStart?.database ?? []),
      ...(postgresAtStart?.background ?? []),
    ]);
    const gatewayBurstStart = procUsage(pid).cpu;
    const driverBurstStart = process.cpuUsage();
    const burstStarted = performance.now();
    const burstDone = Promise.all(
      burstPiles.map(async (pile, i) => {
        for (let cycle = 0; cycle < options.burstCycles && pile.client.open; cycle++) {
          const response = (await timedCall(pile, burst, 'StartTransaction', {
            connectorId: 1,
            idTag: `TAG-${i % 500}`,
            meterStart: 1_000,
            timestamp: new Date().toISOString(),
          })) as { transactionId?: number } | undefined;
          if (response?.transactionId === undefined) return;
          await timedCall(pile, burst, 'MeterValues', meterValues(1, response.transactionId));
          await timedCall(pile, burst, 'StopTransaction', {
            transactionId: response.transactionId,
            meterStop: 25_000,
            timestamp: new Date().toISOString(),
            reason: 'Local',
          });
        }
      }),
    );
    // Bounded like the steady window: whatever is not answered by then counts as unanswered.
    await Promise.race([burstDone, sleep(options.seconds * 1000)]);
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    const burstUnanswered = burstPiles.length * 3 * options.burstCycles - burst.ok - burst.failed; // calls not yet sent included
    const burstLatencies = [...burst.latencies];
    const burstOk = burst.ok;
    const burstFailed = burst.failed;
    const afterBurst = procUsage(pid);
    const machineBurstEnd = readCpu(MACHINE_COMMANDS);
    // This database's backends and the WAL/checkpoint writers; a backend opened during the burst counts whole.
    const postgresAtEnd = options.db ? await postgresPids(options.db.url) : undefined;
    const postgresBurstEnd = cpuSecondsOf([
      ...(postgresAtEnd?.database ?? []),
      ...(postgresAtEnd?.background ?? []),
    ]);
    const postgresCpuSeconds = [...postgresBurstEnd].reduce(
      (sum, [pgPid, seconds]) => sum + seconds - (postgresBurstStart.get(pgPid) ?? 0),
      0,
    );
    const driverBurst = process.cpuUsage(driverBurstStart);
    const steadyShares = cpuShares(machineSteady, machineSteadyEnd);
    const burstShares = cpuShares(machineBurst, machineBurstEnd);
    const durableCalls = [burst, duringBurst]
      .flatMap((stats) => DURABLE_ACTIONS.map((action) => stats.answered.get(action) ?? 0))
      .reduce((a, b) => a + b, 0);
    const gatewayCpuSeconds = afterBurst.cpu - gatewayBurstStart;
    const held = piles.filter((p) => p.client.open).length;

    const steadySorted = steadyDone.latencies.sort((a, b) => a - b);
    const burstSorted = burstLatencies.sort((a, b) => a - b);
    const errors = new Map<string, number>();
    for (const stats of [connectErrors, steadyDone, burst])
      for (const [key, count] of stats.errors) errors.set(key, (errors.get(key) ?? 0) + count);
    const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
    result = {
      served: servedBefore && servedAfter ? servedLatency(servedBefore, servedAfter) : undefined,
      target,
      piles: options.piles,
      connected: piles.length,
      connectSeconds: Math.round(connectSeconds * 10) / 10,
      held,
      steadyCalls: steadyDone.ok,
      steadyFailed: steadyDone.failed,
      steadyRate: Math.round(steadyDone.ok / steadySeconds),
      steadyP50: Math.round(percentile(steadySorted, 50) * 10) / 10,
      steadyP99: Math.round(percentile(steadySorted, 99) * 10) / 10,
      steadyMax: Math.round(steadySorted[steadySorted.length - 1] ?? NaN),
      burstCalls: burstOk,
      burstUnanswered,
      steadyBacklog,
      burstFailed,
      burstRate: Math.round(burstOk / burstSeconds),
      burstP50: Math.round(percentile(burstSorted, 50)),
      burstP99: Math.round(percentile(burstSorted, 99)),
      durableRate: Math.round(durableCalls / burstSeconds),
      durablePerCpuSecond:
        target === 'gateway' ? Math.round(durableCalls / (gatewayCpuSeconds + postgresCpuSeconds)) : NaN,
      gatewayCpuSeconds: Math.round(gatewayCpuSeconds * 10) / 10,
      postgresCpuSeconds: Math.round(postgresCpuSeconds * 10) / 10,
      rssBaseMiB: mib(base.rss),
      rssConnectedMiB: mib(connected.rss),
      rssEndMiB: mib(afterBurst.rss),
      kibPerConnection: Math.round((connected.rss - base.rss) / 1024 / Math.max(1, piles.length)),
      cpuSteady: Math.round(((afterSteady.cpu - steadyCpu) / steadySeconds) * 100),
      cpuBurst: Math.round(((afterBurst.cpu - afterSteady.cpu) / burstSeconds) * 100),
      driverCpu: Math.round(((driverCpu.user + driverCpu.system) / 1e6 / steadySeconds) * 100),
      driverCpuBurst: Math.round(((driverBurst.user + driverBurst.system) / 1e6 / burstSeconds) * 100),
      postgresSteady: steadyShares.byCommand['postgres'],
      postgresBurst: burstShares.byCommand['postgres'],
      idleSteady: steadyShares.idlePercent,
      idleBurst: burstShares.idlePercent,
      driverLoopP99: Math.round(driverLoop.percentile(99) / 1e6),
      driverLoopMax: Math.round(driverLoop.max / 1e6),
      errors: [...errors].map(([key, count]) => `${count}× ${key}`).join('; '),
    };
    return result;
  } finally {
    for (const pile of piles) {
      for (const timer of pile.timers) clearTimeout(timer);
    }
    for (const pile of piles) pile.client.close();
    const stats = await stopChild(child);
    if (result && stats?.['meterBatches'])
      result.meterCallsPerCommit = Math.round((stats['meterCalls'] / stats['meterBatches']) * 10) / 10;
    if (result && stats?.['startBatches'])
      result.writers = (['meter', 'start', 'stop'] as const)
        .map((w) => {
          const batches = stats[`${w}Batches`] ?? 0;
          if (!batches) return `${w} –`;
          const perCommit = (stats[`${w}Calls`] / batches).toFixed(1);
          const mean = ((stats[`${w}Seconds`] / batches) * 1000).toFixed(0);
          const max = ((stats[`${w}MaxSeconds`] ?? 0) * 1000).toFixed(0);
          return `${w} ${perCommit} × ${mean} ms (max ${max})`;
        })
        .join(', ');
    if (target === 'gateway') reportGatewayLog(logFile);
  }
}

/** Warnings and errors the gateway logged (pino levels ≥ 40), then the log file is removed. */
function reportGatewayLog(logFile: string): void {
  try {
    const counts = new Map<string, number>();
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { level: number; msg?: string };
      if (entry.level >= 40) counts.set(entry.msg ?? '?', (counts.get(entry.msg ?? '?') ?? 0) + 1);
    }
    if (counts.size) console.log('gateway warnings/errors:', Object.fromEntries(counts));
  } catch {
    // no log written
  } finally {
    rmSync(logFile, { force: true });
  }
}

function printTable(results: Result[]): void {
  const rows: [string, (r: Result) => string | number][] = [
    ['piles (connected / held at end)', (r) => `${r.piles} (${r.connected} / ${r.held})`],
    ['connect + boot, s', (r) => r.connectSeconds],
    ['steady messages/s', (r) => r.steadyRate],
    ['steady calls (failed)', (r) => `${r.steadyCalls} (${r.steadyFailed})`],
    ['calls in flight at end of window', (r) => r.steadyBacklog],
    ['steady p50 / p99 / max ms', (r) => `${r.steadyP50} / ${r.steadyP99} / ${r.steadyMax}`],
    ['burst messages/s', (r) => r.burstRate],
    [
      'burst calls answered (failed, unanswered)',
      (r) => `${r.burstCalls} (${r.burstFailed}, ${r.burstUnanswered})`,
    ],
    ['burst p50 / p99 ms', (r) => `${r.burstP50} / ${r.burstP99}`],
    ['burst: durable transaction calls/s (Start, MeterValues, Stop)', (r) => r.durableRate],
    [
      'burst: durable calls per CPU-second of gateway + PostgreSQL (its CPU s: this database and WAL writers)',
      (r) =>
        r.target === 'gateway'
          ? `${r.durablePerCpuSecond} (${r.gatewayCpuSeconds} + ${r.postgresCpuSeconds})`
          : '–',
    ],
    [
      'server RSS idle / connected / end, MiB',
      (r) => `${r.rssBaseMiB} / ${r.rssConnectedMiB} / ${r.rssEndMiB}`,
    ],
    ['server RSS per connection, KiB', (r) => r.kibPerConnection],
    ['server CPU steady / burst, % of a core', (r) => `${r.cpuSteady} / ${r.cpuBurst}`],
    ['load generator CPU steady / burst, % of a core', (r) => `${r.driverCpu} / ${r.driverCpuBurst}`],
    ['PostgreSQL CPU steady / burst, % of a core', (r) => `${r.postgresSteady} / ${r.postgresBurst}`],
    ['machine idle steady / burst, % of all cores', (r) => `${r.idleSteady} / ${r.idleBurst}`],
    ['load generator event-loop delay p99 / max ms', (r) => `${r.driverLoopP99} / ${r.driverLoopMax}`],
    ['MeterValues calls per commit', (r) => r.meterCallsPerCommit ?? '–'],
    ['gateway-side steady p50 / p99 (bucket bound), share > 50 ms', (r) => r.served ?? '–'],
    ['writers: calls per commit × mean commit (max)', (r) => r.writers ?? '–'],
  ];
  printMetricTable(results, (r) => r.target, rows);
  for (const r of results) if (r.errors) console.log(`${r.target} errors: ${r.errors}`);
}

async function main(): Promise<void> {
  const piles = Number(arg('piles', '5000'));
  const seconds = Number(arg('seconds', '60'));
  const batch = Number(arg('batch', '200'));
  const burstShare = Number(arg('burst-share', '0.2'));
  const burstCycles = Number(arg('burst-cycles', '5'));
  const targets = arg('targets', 'gateway').split(',') as Target[];
  const prefix = `vdbench-${randomUUID().slice(0, 8)}`;
  console.log(
    `gateway bench: ${piles} piles, ${seconds} s window, batches of ${batch}, burst share ${burstShare} x ${burstCycles} start/meter/stop cycles`,
  );
  console.log(`before:\n${machineLoad()}`);

  let db: BenchDatabase | undefined;
  let credentials: BenchCredentials | undefined;
  const redis = new Redis(REDIS_URL);
  const results: Result[] = [];
  try {
    if (targets.includes('gateway')) {
      db = await createBenchDatabase();
      credentials = await seedPiles(db.url, piles);
    }
    for (const target of targets) {
      console.log(
        `running ${target}… (load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')})`,
      );
      results.push(
        await runTarget(target, { piles, seconds, batch, burstShare, burstCycles, credentials, db, prefix }),
      );
      console.log(
        `${target} done (load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')})`,
      );
    }
    printTable(results);
    console.log(`after:\n${machineLoad()}`);
  } finally {
    await deleteRedisKeys(redis, `${prefix}:*`);
    await redis.quit();
    await db?.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
