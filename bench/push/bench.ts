/**
 * Push benchmark: N STOMP clients (raw STOMP 1.2 over `ws`, one WebSocket each, heart-beats 30 s) connected
 * to the real msg-center (`apps/msg-center/src/main.ts` and its worker, child processes, Redis Streams bus)
 * at /ms/ws, subscribed to /user/topic/transRunStatusStop and /user/topic/m1/msg/inbox. Every client is a
 * distinct user holding msg:stopNotice, except one user signed in once with `--tabs` tabs.
 *
 * 1. "one stop at a time": `--steady` TransactionStopped events, alternately abnormal and normal, one every
 *    `--steady-gap` ms. Each reaches every receiver (the spec's rule): a notice frame on every connection,
 *    and for an abnormal stop an inbox row per user pushed as an inbox frame to each of the user's tabs.
 * 2. "burst of stops": `--stops` TransactionStopped events (half abnormal) published at once.
 * 3. "burst of pile errors": `--tab-messages` pile.error events matched by an event rule whose group is the
 *    one user with several tabs, sent on channel 4 (in-site): bus → rule → BullMQ → worker → inbox row →
 *    push to all of the user's tabs.
 *
 * Latency is from handing an event to the bus (`publish` called) to the frame received by the client, in
 * this one process's clock. Prints connections held, connect time, frames/s, p50/p99/max, the CPU time
 * msg-center and its worker spent on each scenario, and msg-center's RSS per connection (from /proc).
 *
 * Usage: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/push/bench.ts
 *   [--clients 5000] [--tabs 10] [--steady 10] [--steady-gap 3000] [--stops 20] [--tab-messages 200]
 *   [--batch 200] [--timeout 120]
 * Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL as for the integration tests). BENCH_CHILD_LOG=<prefix>
 * keeps msg-center's and the worker's logs in <prefix>.<pid>; BENCH_NODE_ARGS adds node flags to both (e.g.
 * `--cpu-prof --cpu-prof-dir=<dir>`).
 * Prints a table; copy the figures into docs/benchmarks.md.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { WebSocket } from 'ws';
import { sessionKey, signAccessToken } from '@voltdepot/server-core';
import { createDataSource, dropDatabase, migrateDatabase, withDatabase } from '@voltdepot/server-database';
import { createEnvelope, RedisStreamsBus } from '@voltdepot/server-messaging';
import type { EventEnvelope } from '@voltdepot/shared-events';
import { PileError, TransactionStopped } from '@voltdepot/shared-events';
import { freePort, procUsage, startChild as startServer, stopChild } from '../lib/child';
import { arg, latencySummary } from '../lib/cli';

const BASE_DATABASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/voltdepot';
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const JWT_SECRET = `push-bench-${randomUUID()}`;
const STOP_TOPIC = '/user/topic/transRunStatusStop';
const INBOX_TOPIC = '/user/topic/m1/msg/inbox';
const CLIENT_HEARTBEAT_MS = 20_000;

type Envelope = EventEnvelope;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

type Series = { name: string; events: number; expected: number; latencies: number[]; lastAt: number };
type Scenario = {
  series: Map<string, Series>;
  /** Publish time of each event, by its charge point id (which every frame it causes names). */
  sentAt: Map<string, number>;
  /** Keys of the abnormal stops: notices are also reported apart for normal and abnormal stops. */
  abnormal: Set<string>;
  startedAt: number;
  /** CPU seconds msg-center and its worker spent from the first publish to the last frame (+0.5 s). */
  cpu: { main: number; worker: number };
};

/** One raw STOMP 1.2 client; frames of one subscription are reported to `onMessage`. */
class PushClient {
  private ws: WebSocket | undefined;
  private waiting: ((frame: { command: string; headers: Record<string, string> }) => void) | undefined;
  open = false;
  error: string | undefined;

  constructor(
    readonly userIndex: number,
    readonly isTab: boolean,
    private readonly url: string,
    private readonly token: string,
    private readonly onMessage: (client: PushClient, destination: string, body: string) => void,
  ) {}

  async connect(): Promise<void> {
    const ws = new WebSocket(this.url, ['v12.stomp']);
    this.ws = ws;
    ws.on('message', (data: Buffer) => this.onData(data.toString('utf8')));
    ws.on('close', () => (this.open = false));
    await new Promise<void>((done, fail) => {
      ws.once('open', () => done());
      ws.once('error', fail);
    });
    this.open = true;
    const connected = this.next();
    ws.send(
      frame('CONNECT', {
        'accept-version': '1.2',
        host: 'bench',
        'heart-beat': '30000,30000',
        passcode: this.token,
      }),
    );
    const reply = await connected;
    if (reply.command !== 'CONNECTED')
      throw new Error(`CONNECT answered ${reply.command}: ${reply.headers['message']}`);
    const receipt = this.next();
    ws.send(frame('SUBSCRIBE', { id: 'stop', destination: STOP_TOPIC }));
    ws.send(frame('SUBSCRIBE', { id: 'inbox', destination: INBOX_TOPIC, receipt: 'subscribed' }));
    if ((await receipt).command !== 'RECEIPT') throw new Error('SUBSCRIBE was not acknowledged');
  }

  heartbeat(): void {
    if (this.open) this.ws?.send('\n');
  }

  close(): void {
    this.ws?.terminate();
  }

  private next(): Promise<{ command: string; headers: Record<string, string> }> {
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error('no answer in 60 s')), 60_000);
      this.waiting = (f) => {
        clearTimeout(timer);
        done(f);
      };
    });
  }

  private onData(text: string): void {
    if (/^[\r\n]*$/.test(text)) return; // heart-beat
    const raw = text.replace(/^[\r\n]+/, '');
    const headerEnd = raw.indexOf('\n\n');
    const head = raw.slice(0, headerEnd < 0 ? raw.length : headerEnd).split('\n');
    const command = head[0];
    if (command === 'MESSAGE') {
      let destination = '';
      for (const line of head) if (line.startsWith('destination:')) destination = line.slice(12);
      this.onMessage(this, destination, raw.slice(headerEnd + 2));
      return;
    }
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i)] = line.slice(i + 1);
    }
    if (command === 'ERROR') this.error = headers['message'] ?? 'ERROR';
    const waiter = this.waiting;
    this.waiting = undefined;
    waiter?.({ command, headers });
  }
}

function frame(command: string, headers: Record<string, string>, body = ''): string {
  return `${command}\n${Object.entries(headers)
    .map(([k, v]) => `${k}:${v}\n`)
    .join('')}\n${body}\0`;
}

/** Starts a msg-center entry point from source (see startServer); resolves once it logs `ready`. */
async function startChild(script: string, ready: RegExp, env: Record<string, string>): Promise<ChildProcess> {
  const child = await startServer(script, env, { ready, startSeconds: 90 });
  // BENCH_CHILD_LOG=<path prefix>: keep each child's log in <prefix>.<pid>.
  const logPrefix = process.env['BENCH_CHILD_LOG'];
  if (logPrefix) child.stdout?.pipe(createWriteStream(`${logPrefix}.${child.pid}`));
  child.stdout?.resume(); // keep draining the log
  return child;
}

/** Waits until every series of a scenario has its expected frames, or the time-out. */
async function settle(scenario: Scenario, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  const complete = () => [...scenario.series.values()].every((s) => s.latencies.length >= s.expected);
  while (!complete() && performance.now() < deadline) await sleep(100);
  await sleep(500); // late duplicates would show as more than expected
}

async function main(): Promise<void> {
  const clients = Number(arg('clients', '5000'));
  const tabs = Number(arg('tabs', '10'));
  const stops = Number(arg('stops', '20'));
  const tabMessages = Number(arg('tab-messages', '200'));
  const steady = Number(arg('steady', '10'));
  const steadyGapMs = Number(arg('steady-gap', '3000'));
  const batch = Number(arg('batch', '200'));
  const timeoutMs = Number(arg('timeout', '120')) * 1000;
  const distinctUsers = clients - tabs;
  if (distinctUsers < 1 || tabs < 1) throw new Error('need --clients > --tabs >= 1');
  const prefix = `vdpush-${randomUUID().slice(0, 8)}`;
  console.log(
    `push bench: ${clients} clients (${distinctUsers} distinct users + 1 user with ${tabs} tabs), ` +
      `${stops} stops, ${tabMessages} messages to the tabbed user; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
  );

  const dbName = `vd_bench_${randomUUID().slice(0, 8)}`;
  const dbUrl = withDatabase(BASE_DATABASE_URL, dbName);
  const redis = new Redis(REDIS_URL);
  const bus = new RedisStreamsBus({ url: REDIS_URL, prefix });
  let main: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  const pushClients: PushClient[] = [];
  try {
    await migrateDatabase(dbUrl, 'bench-push');
    const users = await seedUsers(dbUrl, distinctUsers + 1);
    const tabUserId = users[users.length - 1];
    const tokens = await issueTokens(redis, `${prefix}:auth:`, users);

    const port = await freePort();
    const env = {
      DATABASE_URL: dbUrl,
      REDIS_URL,
      JWT_SECRET,
      AUTH_REDIS_KEY_PREFIX: `${prefix}:auth:`,
      STOMP_FANOUT_CHANNEL: `${prefix}:stomp`,
      BUS_PREFIX: prefix,
      MSG_QUEUE_PREFIX: `${prefix}-msg`,
      MSG_ALERTS_ENABLED: 'false',
      OPENAPI_DOCS: 'false',
      LOG_LEVEL: 'info',
      PORT: String(port),
    };
    main = await startChild('apps/msg-center/src/main.ts', /"msg":"listening"/, env);
    worker = await startChild('apps/msg-center/src/worker.main.ts', /"msg":"worker ready"/, {
      ...env,
      MSG_WORKER_PORT: String(await freePort()),
    });
    const pid = main.pid!;
    await sleep(2_000);
    const rssIdle = procUsage(pid).rss;

    let current: Scenario | undefined;
    const onMessage = (client: PushClient, destination: string, body: string) => {
      const at = performance.now();
      const scenario = current;
      if (scenario === undefined) return;
      const key = /(?:PUSH|STEADY|TAB)-\d+/.exec(body)?.[0];
      const sentAt = key === undefined ? undefined : scenario.sentAt.get(key);
      if (sentAt === undefined) return;
      const kind =
        destination === STOP_TOPIC
          ? client.isTab
            ? 'notice-tabs'
            : 'notice'
          : key!.startsWith('TAB')
            ? 'tab-inbox'
            : 'stop-inbox';
      const series = scenario.series.get(kind);
      if (series === undefined) return;
      series.latencies.push(at - sentAt);
      series.lastAt = at;
      if (kind !== 'notice') return;
      const split = scenario.series.get(scenario.abnormal.has(key!) ? 'notice-abnormal' : 'notice-normal');
      if (split === undefined) return;
      split.latencies.push(at - sentAt);
      split.lastAt = at;
    };

    const url = `ws://127.0.0.1:${port}/ms/ws`;
    for (let i = 0; i < clients; i++) {
      const userIndex = Math.min(i, distinctUsers);
      pushClients.push(
        new PushClient(userIndex, userIndex === distinctUsers, url, tokens[userIndex], onMessage),
      );
    }
    // Heart-beats from the start: the server drops a session silent for 30 s + grace, and connecting
    // thousands of clients can take longer than that.
    const beats = setInterval(() => pushClients.forEach((c) => c.heartbeat()), CLIENT_HEARTBEAT_MS);
    const connectStarted = performance.now();
    const connectErrors = new Map<string, number>();
    for (let first = 0; first < clients; first += batch) {
      await Promise.all(
        pushClients.slice(first, first + batch).map((c) =>
          c.connect().catch((error: Error) => {
            const key = error.message.slice(0, 80);
            connectErrors.set(key, (connectErrors.get(key) ?? 0) + 1);
          }),
        ),
      );
    }
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    await sleep(3_000);
    const rssConnected = procUsage(pid).rss;
    const connected = pushClients.filter((c) => c.open).length;
    console.log(`connected ${connected}/${clients} in ${connectSeconds.toFixed(1)} s`);

    const run = async (scenario: Scenario, events: Envelope[], gapMs: number) => {
      current = scenario;
      const before = { main: procUsage(pid).cpu, worker: procUsage(worker!.pid!).cpu };
      scenario.startedAt = performance.now();
      for (const e of events) {
        if (TransactionStopped.is(e) && e.payload.stopKind === 'abnormal') scenario.abnormal.add(e.key);
      }
      if (gapMs === 0) {
        for (const e of events) scenario.sentAt.set(e.key, scenario.startedAt);
        await bus.publish(events);
      } else {
        for (const e of events) {
          scenario.sentAt.set(e.key, performance.now());
          await bus.publish(e);
          await sleep(gapMs);
        }
      }
      await settle(scenario, timeoutMs);
      scenario.cpu = {
        main: procUsage(pid).cpu - before.main,
        worker: procUsage(worker!.pid!).cpu - before.worker,
      };
    };
    const stopEvent = (id: string, i: number, abnormal: boolean) =>
      createEnvelope(TransactionStopped, id, {
        chargePointId: id,
        connectorId: 1,
        transactionId: 1000 + i,
        meterStopWh: 12_000,
        energyWh: 12_000,
        timestamp: new Date().toISOString(),
        reason: abnormal ? 'PowerLoss' : 'Local',
        stopKind: abnormal ? 'abnormal' : 'normal',
        quarantined: false,
      });

    // 1. One stop at a time (alternately abnormal and normal): the latency of a single stop event.
    const steadyAbnormal = Math.ceil(steady / 2);
    const steadyNormal = steady - steadyAbnormal;
    const steadyScenario = scenario([
      ['notice', `one stop at a time: notice → ${distinctUsers} users`, steady, steady * distinctUsers],
      ['notice-normal', `  of which after a normal stop`, steadyNormal, steadyNormal * distinctUsers],
      [
        'notice-abnormal',
        `  of which after an abnormal stop`,
        steadyAbnormal,
        steadyAbnormal * distinctUsers,
      ],
      ['notice-tabs', `one stop at a time: notice → 1 user × ${tabs} tabs`, steady, steady * tabs],
      [
        'stop-inbox',
        'one stop at a time: inbox (abnormal) → every user and tab',
        steadyAbnormal,
        steadyAbnormal * clients,
      ],
    ]);
    await run(
      steadyScenario,
      Array.from({ length: steady }, (_, i) => stopEvent(`STEADY-${i}`, i, i % 2 === 0)),
      steadyGapMs,
    );

    // 2. A burst of stops: every receiver gets each notice, abnormal stops also an inbox message.
    const abnormal = Math.floor(stops / 2);
    const stopScenario = scenario([
      ['notice', `burst of stops: notice → ${distinctUsers} users`, stops, stops * distinctUsers],
      ['notice-tabs', `burst of stops: notice → 1 user × ${tabs} tabs`, stops, stops * tabs],
      ['stop-inbox', 'burst of stops: inbox (abnormal) → every user and tab', abnormal, abnormal * clients],
    ]);
    await run(
      stopScenario,
      Array.from({ length: stops }, (_, i) => stopEvent(`PUSH-${i}`, i, i < abnormal)),
      0,
    );

    // 3. Messages to the one user with several tabs, through an event rule, BullMQ and the worker.
    await addTabRule(dbUrl, tabUserId);
    await sleep(1_000);
    const tabScenario = scenario([
      [
        'tab-inbox',
        `burst of pile errors: rule → inbox → 1 user × ${tabs} tabs`,
        tabMessages,
        tabMessages * tabs,
      ],
    ]);
    await run(
      tabScenario,
      Array.from({ length: tabMessages }, (_, i) =>
        createEnvelope(PileError, `TAB-${i}`, {
          chargePointId: `TAB-${i}`,
          connectorId: 1,
          status: 'Faulted',
          errorCode: 'GroundFailure',
          timestamp: new Date().toISOString(),
        }),
      ),
      0,
    );
    current = undefined;
    clearInterval(beats);

    const held = pushClients.filter((c) => c.open && c.error === undefined).length;
    const rssEnd = procUsage(pid).rss;
    printResults({
      clients,
      connected,
      held,
      connectSeconds,
      rssIdle,
      rssConnected,
      rssEnd,
      connectErrors,
      scenarios: [steadyScenario, stopScenario, tabScenario],
      errors: pushClients.filter((c) => c.error !== undefined).map((c) => c.error!),
    });
  } finally {
    for (const c of pushClients) c.close();
    await stopChild(worker);
    await stopChild(main);
    await bus.close();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
    await redis.quit();
    await dropDatabase(BASE_DATABASE_URL, dbName).catch(() => undefined);
  }
}

function scenario(series: [key: string, name: string, events: number, expected: number][]): Scenario {
  return {
    series: new Map(
      series.map(([key, name, events, expected]) => [
        key,
        { name, events, expected, latencies: [], lastAt: 0 },
      ]),
    ),
    sentAt: new Map(),
    abnormal: new Set(),
    startedAt: 0,
    cpu: { main: 0, worker: 0 },
  };
}

/** `count` users holding the operator role (which has msg:stopNotice); returns their ids in order. */
async function seedUsers(url: string, count: number): Promise<number[]> {
  const ds = createDataSource({ url, poolSize: 1, applicationName: 'bench-push-seed' });
  await ds.initialize();
  try {
    const rows = (await ds.query(
      `INSERT INTO sys_user (username, password_hash, real_name, organization_id)
       SELECT 'push' || lpad(n::text, 6, '0'), 'x', 'Push ' || n, (SELECT id FROM sys_organization WHERE code = 'ROOT')
         FROM generate_series(1, $1) AS n
       RETURNING id::int AS id`,
      [count],
    )) as { id: number }[];
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    await ds.query(
      `INSERT INTO sys_user_role (user_id, role_id) SELECT u, (SELECT id FROM sys_role WHERE code = 'operator') FROM unnest($1::bigint[]) AS u`,
      [ids],
    );
    return ids;
  } finally {
    await ds.destroy();
  }
}

/** One live session and access token per user, as the api issues them at sign-in. */
async function issueTokens(redis: Redis, authPrefix: string, users: number[]): Promise<string[]> {
  const tokens: string[] = [];
  const pipeline = redis.pipeline();
  for (const userId of users) {
    const sessionId = randomUUID();
    pipeline.hset(`${authPrefix}${sessionKey(sessionId)}`, { userId: String(userId), current: 'bench' });
    pipeline.expire(`${authPrefix}${sessionKey(sessionId)}`, 3600);
    tokens.push(
      (await signAccessToken({ userId, username: `push${userId}`, sessionId }, JWT_SECRET, 3600)).token,
    );
  }
  await pipeline.exec();
  return tokens;
}

/** pile.error → in-site message (channel 4) to the one user with several tabs; no template, no throttle. */
async function addTabRule(url: string, userId: number): Promise<void> {
  const ds = createDataSource({ url, poolSize: 1, applicationName: 'bench-push-seed' });
  await ds.initialize();
  try {
    const [group] = (await ds.query(
      `INSERT INTO msg_group (name, type, member_ids) VALUES ('bench tabs', 'USER', $1) RETURNING id::int AS id`,
      [[userId]],
    )) as { id: number }[];
    await ds.query(
      `INSERT INTO msg_event (name, event_type, condition, group_id, channels, level) VALUES ('bench tabs', 'pile.error', '{}', $1, '{4}', 'PROMPT')`,
      [group.id],
    );
  } finally {
    await ds.destroy();
  }
}

function printResults(r: {
  clients: number;
  connected: number;
  held: number;
  connectSeconds: number;
  rssIdle: number;
  rssConnected: number;
  rssEnd: number;
  connectErrors: Map<string, number>;
  scenarios: Scenario[];
  errors: string[];
}): void {
  console.log('');
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  console.log(
    `connections: ${r.connected}/${r.clients} connected in ${r.connectSeconds.toFixed(1)} s, ${r.held} held to the end`,
  );
  console.log(
    `msg-center RSS: idle ${mib(r.rssIdle)} MiB → connected ${mib(r.rssConnected)} MiB (end ${mib(r.rssEnd)} MiB), ` +
      `${Math.round((r.rssConnected - r.rssIdle) / 1024 / Math.max(1, r.connected))} KiB per connection`,
  );
  for (const [error, count] of r.connectErrors) console.log(`connect error ×${count}: ${error}`);
  if (r.errors.length > 0)
    console.log(`ERROR frames: ${r.errors.length} (${[...new Set(r.errors)].join(', ')})`);
  console.log('');
  console.log(
    '| scenario | events | frames expected | frames received | frames/s | p50 ms | p99 ms | max ms | CPU s (msg-center + worker) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const scenario of r.scenarios) {
    const cpu = `${scenario.cpu.main.toFixed(1)} + ${scenario.cpu.worker.toFixed(1)}`;
    for (const s of scenario.series.values()) {
      const seconds = Math.max(0.001, (s.lastAt - scenario.startedAt) / 1000);
      const summary = s.latencies.length > 0 ? latencySummary(s.latencies, seconds) : undefined;
      const ms = (n: number | undefined) => (n === undefined ? '–' : String(Math.round(n)));
      console.log(
        `| ${s.name} | ${s.events} | ${s.expected} | ${s.latencies.length} | ${summary?.rate ?? 0} | ` +
          `${ms(summary?.p50)} | ${ms(summary?.p99)} | ${ms(summary?.max)} | ${cpu} |`,
      );
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
