/**
 * Reconnect storm: registered piles all connecting at once to a gateway that has just started (as after
 * a restart, when every pile reconnects), each with HTTP Basic and the password stored exactly as the
 * registry stores it in production (bench/gateway/fixture.ts: a random password per pile, the keyed hash).
 * Each pile opens its WebSocket and sends a BootNotification; nothing is retried, so a refusal shows.
 *
 * Two storms, each against a fresh gateway child: `--piles` (10,000) piles with their passwords (goal: all
 * Accepted within 60 s, none refused, p99 handshake time printed), then `--wrong-piles` (1,000) piles of
 * which one in `--wrong-every` (10) sends a wrong password (goal: every handshake answered within 5 s).
 * Also prints what one verification costs in this process (the keyed hash, and argon2id as the api stored
 * passwords before), the CPU the gateway and PostgreSQL used, and the load average and `top` before and
 * after (the machine may be shared).
 *
 * Usage: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/gateway/storm.ts
 *   [--piles 10000] [--wrong-piles 1000] [--wrong-every 10] [--argon2-piles 0]
 * `--argon2-piles N` adds a third storm: N piles whose stored passwords are still argon2id hashes (as right
 * after the keyed hash was deployed), to see the bounded answer time of the slow path (a queue of 2
 * verifications at once; 503 beyond it or at the handshake deadline) and how many were stored again.
 * Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL as for the integration tests).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import argon2 from 'argon2';
import Redis from 'ioredis';
import { GATEWAY_NODE_OPTIONS } from '@voltdepot/server-ocpp-gateway';
import { PilePasswordHasher } from '@voltdepot/server-pile-credentials';
import { cpuSecondsOf, freePort, procUsage, startChild, stopChild } from '../lib/child';
import { arg, percentile, printMetricTable } from '../lib/cli';
import { deleteRedisKeys } from '../lib/redis-keys';
import {
  createBenchDatabase,
  withDataSource,
  machineLoad,
  pileId,
  postgresPids,
  REDIS_URL,
  seedPiles,
  type BenchCredentials,
  type BenchDatabase,
} from './fixture';
import { HandshakeRefused, LeanPile } from './lean-pile';

type Outcome = {
  wrong: boolean;
  /** ms from the start of the storm to the handshake's answer (open or refusal). */
  answeredMs?: number;
  /** ms the handshake took (its own start to its answer). */
  handshakeMs?: number;
  status?: number;
  bootStatus?: string;
  /** ms from the start of the storm to the BootNotification's answer. */
  bootMs?: number;
  error?: string;
};

type StormResult = {
  name: string;
  piles: number;
  wrong: number;
  accepted: number;
  booted: number;
  refused: Record<string, number>;
  wrongAnswers: Record<string, number>;
  errors: Record<string, number>;
  allAcceptedS: number;
  handshake: { p50: number; p99: number; max: number };
  slowestAnswerS: number;
  slowestWrongS: number;
  gatewayCpuS: number;
  postgresCpuS: number;
  seconds: number;
};

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
/** A pile gives up a handshake after this long (the goals are 60 s and 5 s; this only ends the run). */
const HANDSHAKE_TIMEOUT_MS = 120_000;

/** What one verification costs here: the keyed hash (µs) and argon2id with the api's former parameters (ms). */
async function verificationCost(): Promise<{ hmacUs: number; argon2Ms: number }> {
  const hasher = new PilePasswordHasher({ id: 'cost', secret: 'a-key-of-at-least-thirty-two-characters' });
  const stored = hasher.hash('pile-password-0123456789');
  const password = Buffer.from('pile-password-0123456789');
  const n = 20_000;
  let started = performance.now();
  for (let i = 0; i < n; i++) await hasher.verify(stored, password);
  const hmacUs = ((performance.now() - started) * 1000) / n;
  const legacy = await argon2.hash('pile-password-0123456789', { type: argon2.argon2id });
  started = performance.now();
  for (let i = 0; i < 5; i++) await argon2.verify(legacy, password);
  return { hmacUs: round(hmacUs, 2), argon2Ms: round((performance.now() - started) / 5) };
}

async function storm(
  name: string,
  options: {
    piles: number;
    wrongEvery: number;
    db: BenchDatabase;
    credentials: BenchCredentials;
    prefix: string;
  },
): Promise<StormResult> {
  const port = await freePort();
  const logFile = join(tmpdir(), `voltdepot-gateway-storm-${randomUUID().slice(0, 8)}.log`);
  const child = await startChild(
    'bench/lib/gateway.process.ts',
    {
      BENCH_PORT: String(port),
      BENCH_DB_URL: options.db.url,
      BENCH_PREFIX: options.prefix,
      BENCH_LOG_FILE: logFile,
      ...options.credentials.env,
    },
    { nodeArgs: GATEWAY_NODE_OPTIONS },
  );
  const pid = child.pid!;
  const piles: LeanPile[] = [];
  try {
    await sleep(1_000);
    const gatewayBefore = procUsage(pid).cpu;
    const postgresOf = async () => {
      const pids = await postgresPids(options.db.url);
      return cpuSecondsOf([...pids.database, ...pids.background]);
    };
    const postgresBefore = await postgresOf();
    const started = performance.now();
    const since = () => performance.now() - started;
    const outcomes = await Promise.all(
      Array.from({ length: options.piles }, async (_, n): Promise<Outcome> => {
        const wrong = options.wrongEvery > 0 && n % options.wrongEvery === options.wrongEvery - 1;
        const password = options.credentials.passwordOf(n) + (wrong ? '-wrong' : '');
        const pile = new LeanPile(pileId(n), {
          url: `ws://127.0.0.1:${port}/ocpp`,
          password,
          handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
        });
        piles.push(pile);
        const outcome: Outcome = { wrong };
        const begun = since();
        try {
          await pile.connect();
          outcome.status = 101;
        } catch (error) {
          if (error instanceof HandshakeRefused) outcome.status = error.status;
          else outcome.error = error instanceof Error ? error.message.slice(0, 60) : String(error);
        }
        outcome.answeredMs = since();
        outcome.handshakeMs = outcome.answeredMs - begun;
        if (outcome.status !== 101) return outcome;
        try {
          const reply = (await pile.call('BootNotification', {
            chargePointVendor: 'Voltdepot',
            chargePointModel: 'Storm-150',
            chargePointSerialNumber: pile.id,
          })) as { status?: string };
          outcome.bootStatus = reply.status;
          outcome.bootMs = since();
        } catch (error) {
          outcome.error = error instanceof Error ? error.message.slice(0, 60) : String(error);
        }
        return outcome;
      }),
    );
    const seconds = since() / 1000;
    const gatewayCpuS = procUsage(pid).cpu - gatewayBefore;
    // This database's backends (those opened during the storm count whole) and the WAL writers.
    const postgresCpuS = [...(await postgresOf())].reduce(
      (sum, [pgPid, cpu]) => sum + cpu - (postgresBefore.get(pgPid) ?? 0),
      0,
    );

    const count = (values: (string | undefined)[]) => {
      const counts: Record<string, number> = {};
      for (const v of values) if (v !== undefined) counts[v] = (counts[v] ?? 0) + 1;
      return counts;
    };
    const right = outcomes.filter((o) => !o.wrong);
    const accepted = right.filter((o) => o.status === 101);
    const booted = accepted.filter((o) => o.bootStatus === 'Accepted');
    const handshakes = outcomes
      .map((o) => o.handshakeMs)
      .filter((ms): ms is number => ms !== undefined)
      .sort((a, b) => a - b);
    const maxOf = (values: (number | undefined)[]) => Math.max(0, ...values.filter((v) => v !== undefined));
    return {
      name,
      piles: options.piles,
      wrong: outcomes.length - right.length,
      accepted: accepted.length,
      booted: booted.length,
      // Refusals of piles with the right password, and what the wrong ones got.
      refused: count(
        right.filter((o) => o.status !== undefined && o.status !== 101).map((o) => String(o.status)),
      ),
      wrongAnswers: count(outcomes.filter((o) => o.wrong).map((o) => String(o.status ?? o.error))),
      errors: count(outcomes.map((o) => o.error)),
      allAcceptedS:
        booted.length === right.length ? round(maxOf(booted.map((o) => o.bootMs)) / 1000) : Number.NaN,
      handshake: {
        p50: round(percentile(handshakes, 50)),
        p99: round(percentile(handshakes, 99)),
        max: round(handshakes.at(-1) ?? Number.NaN),
      },
      slowestAnswerS: round(maxOf(outcomes.map((o) => o.handshakeMs)) / 1000, 2),
      slowestWrongS: round(maxOf(outcomes.filter((o) => o.wrong).map((o) => o.handshakeMs)) / 1000, 2),
      gatewayCpuS: round(gatewayCpuS),
      postgresCpuS: round(postgresCpuS),
      seconds: round(seconds),
    };
  } finally {
    for (const pile of piles) pile.close();
    await stopChild(child);
    rmSync(logFile, { force: true });
  }
}

function printTable(results: StormResult[]): void {
  const rows: [string, (r: StormResult) => string | number][] = [
    ['piles (with a wrong password)', (r) => `${r.piles} (${r.wrong})`],
    [
      'right passwords: handshakes accepted / BootNotification Accepted',
      (r) => `${r.accepted} / ${r.booted}`,
    ],
    ['right passwords refused (by status)', (r) => JSON.stringify(r.refused)],
    ['wrong passwords answered (by status)', (r) => JSON.stringify(r.wrongAnswers)],
    ['errors', (r) => JSON.stringify(r.errors)],
    ['all right piles Accepted after, s', (r) => r.allAcceptedS],
    ['handshake p50 / p99 / max, ms', (r) => `${r.handshake.p50} / ${r.handshake.p99} / ${r.handshake.max}`],
    ['slowest handshake answer (of a wrong password), s', (r) => `${r.slowestAnswerS} (${r.slowestWrongS})`],
    ['CPU gateway / PostgreSQL, s', (r) => `${r.gatewayCpuS} / ${r.postgresCpuS}`],
    ['storm took, s', (r) => r.seconds],
  ];
  printMetricTable(results, (r) => r.name, rows);
}

async function main(): Promise<void> {
  const piles = Number(arg('piles', '10000'));
  const wrongPiles = Number(arg('wrong-piles', '1000'));
  const wrongEvery = Number(arg('wrong-every', '10'));
  const argon2Piles = Number(arg('argon2-piles', '0'));
  const prefix = `vdstorm-${randomUUID().slice(0, 8)}`;
  console.log(`gateway reconnect storm: ${piles} piles, then ${wrongPiles} with one in ${wrongEvery} wrong`);
  console.log(`before:\n${machineLoad()}`);
  const cost = await verificationCost();
  console.log(
    `one password verification in this process: keyed hash ${cost.hmacUs} µs, argon2id (former api parameters) ${cost.argon2Ms} ms`,
  );

  const db = await createBenchDatabase();
  const redis = new Redis(REDIS_URL);
  try {
    const credentials = await seedPiles(db.url, Math.max(piles, wrongPiles, argon2Piles));
    const results = [];
    if (piles > 0)
      results.push(
        await storm(`${piles} piles`, { piles, wrongEvery: 0, db, credentials, prefix: `${prefix}-a` }),
      );
    if (wrongPiles > 0)
      results.push(
        await storm(`${wrongPiles} piles, 1 in ${wrongEvery} wrong`, {
          piles: wrongPiles,
          wrongEvery,
          db,
          credentials,
          prefix: `${prefix}-b`,
        }),
      );
    if (argon2Piles > 0) {
      // Piles whose passwords are still argon2id hashes (one production-cost hash of a shared password:
      // the gateway verifies each pile's anyway), as right after the keyed hash was deployed.
      const legacyPassword = 'legacy-pile-password-0123';
      const legacy = await argon2.hash(legacyPassword, { type: argon2.argon2id });
      const ids = Array.from({ length: argon2Piles }, (_, n) => pileId(n));
      await withDataSource(db.url, (ds) =>
        ds.query('UPDATE pile_registry SET password_hash = $1 WHERE charge_point_id = ANY($2)', [
          legacy,
          ids,
        ]),
      );
      results.push(
        await storm(`${argon2Piles} piles with argon2id hashes`, {
          piles: argon2Piles,
          wrongEvery: 0,
          db,
          credentials: { ...credentials, passwordOf: () => legacyPassword },
          prefix: `${prefix}-c`,
        }),
      );
      const [restored] = await withDataSource(db.url, (ds) =>
        ds.query(
          `SELECT count(*)::int AS n FROM pile_registry WHERE charge_point_id = ANY($1) AND password_hash LIKE 'hmac-sha256$%'`,
          [ids],
        ),
      );
      console.log(`argon2id piles stored again as keyed hashes: ${restored.n} of ${argon2Piles}`);
    }
    printTable(results);
    console.log(`after:\n${machineLoad()}`);
  } finally {
    await deleteRedisKeys(redis, `${prefix}*`);
    await redis.quit();
    await db.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
