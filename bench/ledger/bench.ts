/**
 * Ledger benchmark: postings per second and their latency (p50/p99), spread over many accounts and on
 * one hot account, against real PostgreSQL through `LedgerService` exactly as the consumption consumer
 * and the operators' actions post (one database transaction per posting, accounts locked in id order).
 * Spread: charging consumptions and recharges on random accounts of `--accounts`; hot: consumptions and
 * recharges all on one account (they queue on its row lock). `--concurrency` postings are in flight at
 * once over a pool of `--pool` connections.
 *
 * Usage: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/ledger/bench.ts \
 *          [--accounts 10000] [--postings 10000] [--hot 3000] [--concurrency 32] [--pool 10]
 * Needs DATABASE_URL (`. .var/infra.env`). Prints a table for docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { createDataSource, dropDatabase, migrateDatabase, withDatabase } from '@voltdepot/server-database';
import { LedgerRepository, LedgerService } from '@voltdepot/server-ledger';
import { arg, latencySummary, printMetricTable } from '../lib/cli';

const BASE_DATABASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/voltdepot';

type Result = ReturnType<typeof latencySummary> & { scenario: string; postings: number; cpuSeconds: number };

/** Runs `total` postings, `concurrency` at a time; latency per posting in ms. */
async function measure(
  scenario: string,
  total: number,
  concurrency: number,
  posting: (i: number) => Promise<unknown>,
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await posting(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    scenario,
    postings: total,
    cpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(1)),
    ...latencySummary(latencies, seconds),
  };
}

async function main() {
  const accountCount = Number(arg('accounts', '10000'));
  const postings = Number(arg('postings', '10000'));
  const hotPostings = Number(arg('hot', '3000'));
  const concurrency = Number(arg('concurrency', '32'));
  const poolSize = Number(arg('pool', '10'));
  const name = `vd_bench_${randomUUID().slice(0, 8)}`;
  const url = withDatabase(BASE_DATABASE_URL, name);
  await migrateDatabase(url, 'bench-ledger');
  const dataSource = createDataSource({ url, poolSize });
  await dataSource.initialize();
  const loadAtStart = loadavg()[0];
  try {
    // Accounts (each with its arrears account) seeded in one statement: opening them is not measured.
    const rows: { id: string }[] = await dataSource.query(
      `WITH a AS (INSERT INTO ledger_account (kind, name)
                  SELECT 'personal', 'Bench ' || g FROM generate_series(1, $1) g RETURNING id)
       INSERT INTO ledger_account (kind, parent_id, name) SELECT 'arrears', id, 'arrears' FROM a RETURNING parent_id AS id`,
      [accountCount + 1],
    );
    const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    const hot = ids.pop()!;
    const ledger = new LedgerService(new LedgerRepository(dataSource));
    // Every account starts with 1,000.00 so consumptions mostly draw on a balance.
    await measure('seed', ids.length, concurrency, (i) =>
      ledger.recharge({ idempotencyKey: `seed-${i}`, accountId: ids[i], amountFen: 100_000 }),
    );
    const mixed = (accountOf: (i: number) => number, prefix: string) => (i: number) =>
      i % 5 === 4
        ? ledger.recharge({ idempotencyKey: `${prefix}-r-${i}`, accountId: accountOf(i), amountFen: 5_000 })
        : ledger.consume({
            idempotencyKey: `${prefix}-c-${i}`,
            kind: 'consumption',
            accountId: accountOf(i),
            amountFen: 1_000 + (i % 997),
            reference: `${prefix}-${i}`,
          });
    const results = [
      await measure(
        `spread over ${ids.length} accounts`,
        postings,
        concurrency,
        mixed(() => ids[Math.floor(Math.random() * ids.length)], 'spread'),
      ),
      await measure(
        'one hot account',
        hotPostings,
        concurrency,
        mixed(() => hot, 'hot'),
      ),
    ];
    printMetricTable(results, (r) => r.scenario, [
      ['postings (4 consumptions : 1 recharge)', (r) => r.postings],
      ['seconds', (r) => r.seconds],
      ['postings/s', (r) => r.rate],
      ['p50 ms', (r) => r.p50.toFixed(1)],
      ['p99 ms', (r) => r.p99.toFixed(1)],
      ['max ms', (r) => r.max.toFixed(1)],
      ['CPU s of this process', (r) => r.cpuSeconds],
    ]);
    const [{ unbalanced }] = await dataSource.query(
      `SELECT count(*) AS unbalanced FROM (SELECT 1 FROM ledger_entry GROUP BY transaction_id HAVING sum(amount_fen) <> 0) x`,
    );
    console.log(
      `concurrency ${concurrency}, pool ${poolSize}; unbalanced transactions: ${unbalanced}; ` +
        `1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
    );
  } finally {
    await dataSource.destroy();
    await dropDatabase(BASE_DATABASE_URL, name);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
