import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import pino from 'pino';
import type { RPCClient } from 'ocpp-rpc';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@voltdepot/server-database';
import { eventually } from '@voltdepot/server-testing';
import { bootRequest, GatewayTestHarness } from '../../../testing/fixtures/gateway-test-harness';
import { OcppGateway } from '../../../gateway/ocpp-gateway';

/**
 * A TCP proxy in front of PostgreSQL that a test can cut: `down('refuse')` closes the port (connections
 * refused at once, as with a stopped database), `down('hang')` accepts connections and never answers
 * (as with a network partition); both drop the connections the pool holds.
 */
class DatabaseProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private mode: 'up' | 'hang' = 'up';
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    this.server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => undefined);
      if (this.mode === 'hang') return;
      const upstream = connect(this.target.port, this.target.host);
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async down(how: 'refuse' | 'hang'): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (how === 'hang') {
      this.mode = 'hang';
      return;
    }
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  async up(): Promise<void> {
    this.mode = 'up';
    for (const socket of this.sockets) socket.destroy(); // hung connections fail, the pool opens new ones
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

const h = new GatewayTestHarness();
let proxy: DatabaseProxy;
let dataSource: DataSource;
let gateway: OcppGateway;
let client: RPCClient;

async function authorize(idTag: string): Promise<{ status: string; ms: number }> {
  const started = performance.now();
  const { idTagInfo } = (await client.call('Authorize', { idTag })) as { idTagInfo: { status: string } };
  return { status: idTagInfo.status, ms: performance.now() - started };
}

beforeAll(async () => {
  await h.start();
  const url = new URL(h.db.url);
  proxy = new DatabaseProxy({ host: url.hostname, port: Number(url.port || 5432) });
  await proxy.listen();
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  // The gateway under test reads the database through the proxy; the harness's own connection does not.
  dataSource = createDataSource({ url: url.toString(), poolSize: 6, applicationName: 'authorize-db-down' });
  await dataSource.initialize();
  await h.addIdTag('TAG-OK', 'Accepted');
  await h.addIdTag('TAG-BLOCKED', 'Blocked');
  await h.addIdTag('TAG-HERE', 'Accepted');
  await h.addIdTag('TAG-ELSEWHERE', 'Accepted');
  const password = await h.addPile('CP-DBDOWN');
  // A transaction opened through another replica before this one started: known from its first reload.
  await h.query(
    `INSERT INTO ocpp_transaction (charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at)
     VALUES ('CP-OTHER', 1, 'TAG-ELSEWHERE', 'Accepted', 0, now())`,
  );
  gateway = new OcppGateway(
    { dataSource, redis: h.redis, bus: h.bus, logger: pino({ level: 'silent' }) },
    {
      OCPP_PORT: 0,
      OCPP_HOST: '127.0.0.1',
      OCPP_REDIS_PREFIX: h.prefix,
      OCPP_REPLICA_ID: `replica-${randomUUID().slice(0, 6)}`,
      OCPP_ID_TAG_CACHE_MS: 0, // every Authorize reads the database while it is up
      OCPP_AUTHORIZE_DB_TIMEOUT_MS: 50,
      OCPP_OPEN_TX_REFRESH_MS: 0,
      messageLogFlushMs: 50,
    },
  );
  const port = await gateway.start();
  client = await h.connect('CP-DBDOWN', password, { url: `ws://127.0.0.1:${port}/ocpp` });
  await client.call('BootNotification', bootRequest);
  const start = (await client.call('StartTransaction', {
    connectorId: 1,
    idTag: 'TAG-HERE',
    meterStart: 0,
    timestamp: new Date().toISOString(),
  })) as { idTagInfo: { status: string } };
  expect(start.idTagInfo.status).toBe('Accepted');
});

afterAll(async () => {
  await proxy?.up();
  await client?.close({ force: true }).catch(() => undefined);
  await gateway?.stop();
  await dataSource?.destroy();
  await proxy?.close();
  await h.stop();
});

const known = [
  ['TAG-OK', 'Accepted'],
  ['TAG-BLOCKED', 'Blocked'],
  ['TAG-HERE', 'ConcurrentTx'], // opened on this replica
  ['TAG-ELSEWHERE', 'ConcurrentTx'], // open in the database at the last reload
] as const;

describe('Authorize while the database is unreachable', () => {
  it('answers every tag from the database while it is up', async () => {
    for (const [idTag, status] of known) expect((await authorize(idTag)).status).toBe(status);
    expect(gateway.idTags.staleAnswers).toBe(0);
    expect(gateway.openTransactions.fallbacks).toBe(0);
  });

  it.each(['refuse', 'hang'] as const)(
    'answers known tags from the cache within milliseconds when connections %s',
    async (how) => {
      await proxy.down(how);
      try {
        // The database is really out of reach for the gateway's pool.
        await expect(
          Promise.race([
            dataSource.query('SELECT 1'),
            new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), 300)),
          ]),
        ).rejects.toThrow();
        for (const [idTag, status] of known) {
          const answer = await authorize(idTag);
          expect(answer.status).toBe(status);
          expect(answer.ms).toBeLessThan(200);
        }
        // A card never seen has no cached answer: the pile gets an error, not a wrong Accepted.
        if (how === 'refuse')
          await expect(client.call('Authorize', { idTag: 'TAG-NEVER-SEEN' })).rejects.toThrow();
      } finally {
        await proxy.up();
      }
    },
  );

  it('reads again once the database is back (a card blocked meanwhile is Blocked)', async () => {
    await h.addIdTag('TAG-OK', 'Blocked');
    // The pool's first connection after the outage may take longer than the 150 ms read time-out, and
    // meanwhile the stale entry answers (by design): the fresh answer follows.
    await eventually(async () => expect((await authorize('TAG-OK')).status).toBe('Blocked'), 10_000);
  });
});
