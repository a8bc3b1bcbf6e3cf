import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import { eventually } from '@voltdepot/server-testing';
import type { OcppGateway } from '../gateway/ocpp-gateway';
import { GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';
import { PileCommandErrorCode, PileCommandException } from '@voltdepot/server-ocpp-commands';

const h = new GatewayTestHarness();
let pile: SimulatedPile;
let replica: OcppGateway;

beforeAll(async () => {
  await h.start();
  await h.addIdTag('BUS-R', 'Accepted');
  pile = new SimulatedPile({
    url: h.url,
    chargePointId: 'CMD-1',
    password: await h.addPile('CMD-1'),
    connectors: 2,
    meterIntervalMs: 50,
    timeScale: 60,
    reconnectDelayMs: 100,
  });
  await pile.start();
  replica = await h.startReplica();
});
afterAll(async () => {
  await pile.stop();
  await h.stop();
});

const commandRows = (chargePointId: string) =>
  h.query<{ action: string; status: string; response: unknown; error: string | null }>(
    'SELECT action, status, response, error FROM pile_command WHERE charge_point_id = $1 ORDER BY requested_at',
    [chargePointId],
  );

async function expectCommandError(
  promise: Promise<unknown>,
  code: PileCommandErrorCode,
): Promise<PileCommandException> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PileCommandException);
  expect((error as PileCommandException).code).toBe(code);
  return error as PileCommandException;
}

describe('sendCommand', () => {
  it('RemoteStartTransaction and RemoteStopTransaction drive a session on the pile', async () => {
    expect(
      await h.gateway.commands.sendCommand('CMD-1', 'RemoteStartTransaction', {
        connectorId: 1,
        idTag: 'BUS-R',
      }),
    ).toEqual({ status: 'Accepted' });
    const session = await eventually(() => {
      const s = pile.activeSession(1);
      if (!s?.transactionId) throw new Error('not started');
      return s;
    });
    expect(
      await h.gateway.commands.sendCommand('CMD-1', 'RemoteStopTransaction', {
        transactionId: session.transactionId!,
      }),
    ).toEqual({ status: 'Accepted' });
    await eventually(() => expect(session.reason).toBe('Remote'));
    await pile.drained();
    const [row] = await h.query(
      'SELECT stop_reason, stop_kind FROM ocpp_transaction WHERE transaction_id = $1',
      [session.transactionId],
    );
    expect(row).toEqual({ stop_reason: 'Remote', stop_kind: 'normal' });
    const rows = await commandRows('CMD-1');
    expect(rows.slice(0, 2)).toEqual([
      {
        action: 'RemoteStartTransaction',
        status: 'completed',
        response: { status: 'Accepted' },
        error: null,
      },
      { action: 'RemoteStopTransaction', status: 'completed', response: { status: 'Accepted' }, error: null },
    ]);
  });

  it('UnlockConnector on a charging gun ends the session with UnlockCommand (abnormal)', async () => {
    const session = await pile.startSession(2, 'BUS-R', { autoStop: false });
    await eventually(() => expect(session.transactionId).toBeDefined());
    expect(await h.gateway.commands.sendCommand('CMD-1', 'UnlockConnector', { connectorId: 2 })).toEqual({
      status: 'Unlocked',
    });
    await eventually(() => expect(session.stopKind).toBe('abnormal'));
    expect(session.reason).toBe('UnlockCommand');
  });

  it("ChangeAvailability, GetConfiguration, ChangeConfiguration and TriggerMessage get the pile's answers", async () => {
    const send = h.gateway.commands.sendCommand.bind(h.gateway.commands);
    expect(await send('CMD-1', 'ChangeAvailability', { connectorId: 2, type: 'Inoperative' })).toEqual({
      status: 'Accepted',
    });
    await eventually(async () =>
      expect(
        await h.query(
          `SELECT status FROM connector_status WHERE charge_point_id = 'CMD-1' AND connector_id = 2`,
        ),
      ).toEqual([{ status: 'Unavailable' }]),
    );
    expect(await send('CMD-1', 'ChangeAvailability', { connectorId: 2, type: 'Operative' })).toEqual({
      status: 'Accepted',
    });
    expect(await send('CMD-1', 'ChangeConfiguration', { key: 'HeartbeatInterval', value: '120' })).toEqual({
      status: 'Accepted',
    });
    expect(await send('CMD-1', 'ChangeConfiguration', { key: 'NumberOfConnectors', value: '9' })).toEqual({
      status: 'Rejected',
    });
    expect(await send('CMD-1', 'ChangeConfiguration', { key: 'NoSuchKey', value: '1' })).toEqual({
      status: 'NotSupported',
    });
    expect(await send('CMD-1', 'GetConfiguration', { key: ['HeartbeatInterval', 'Nope'] })).toEqual({
      configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '120' }],
      unknownKey: ['Nope'],
    });
    const before = h.events.length;
    expect(
      await send('CMD-1', 'TriggerMessage', { requestedMessage: 'StatusNotification', connectorId: 1 }),
    ).toEqual({ status: 'Accepted' });
    await eventually(() =>
      expect(
        h.events
          .slice(before)
          .some(
            (e) =>
              e.type === 'connector.status-changed' &&
              (e.payload as { chargePointId: string }).chargePointId === 'CMD-1',
          ),
      ).toBe(true),
    );
  });

  it('routes a command to the replica that holds the pile', async () => {
    const password = await h.addPile('CMD-2');
    const remote = new SimulatedPile({
      url: `ws://127.0.0.1:${replica.port}/ocpp`,
      chargePointId: 'CMD-2',
      password,
      connectors: 1,
    });
    await remote.start();
    try {
      expect(h.gateway.sessions.get('CMD-2')).toBeUndefined();
      expect(
        await h.gateway.commands.sendCommand('CMD-2', 'GetConfiguration', { key: ['NumberOfConnectors'] }),
      ).toEqual({
        configurationKey: [{ key: 'NumberOfConnectors', readonly: true, value: '1' }],
        unknownKey: [],
      });
      const rows = await h.query<{ replica_id: string; status: string }>(
        `SELECT replica_id, status FROM pile_command WHERE charge_point_id = 'CMD-2'`,
      );
      expect(rows).toEqual([{ replica_id: replica.replicaId, status: 'completed' }]);
    } finally {
      await remote.stop();
    }
  });

  it('fails fast for an offline pile and records it', async () => {
    const started = Date.now();
    await expectCommandError(
      h.gateway.commands.sendCommand('CMD-NOBODY', 'Reset', { type: 'Soft' }),
      PileCommandErrorCode.PileOffline,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await commandRows('CMD-NOBODY')).toEqual([
      expect.objectContaining({ action: 'Reset', status: 'offline' }),
    ]);
  });

  it('fails fast when the connection record points to a replica that is gone', async () => {
    const at = new Date().toISOString();
    await h.redis.hset(h.gateway.sessions.connectionKey('CMD-STALE'), {
      replicaId: 'dead-replica',
      sessionId: 'x',
      connectedAt: at,
      lastSeenAt: at,
    });
    const started = Date.now();
    const error = await expectCommandError(
      h.gateway.commands.sendCommand('CMD-STALE', 'Reset', { type: 'Soft' }),
      PileCommandErrorCode.PileOffline,
    );
    expect(error.message).toBe('pile CMD-STALE: its replica dead-replica is gone');
    expect(Date.now() - started).toBeLessThan(1_000);
    await h.redis.del(h.gateway.sessions.connectionKey('CMD-STALE'));
  });

  it('times out when the pile does not answer, locally and through another replica', async () => {
    const password = await h.addPile('CMD-MUTE');
    const mute = await h.connect('CMD-MUTE', password);
    mute.handle('Reset', () => new Promise(() => undefined));
    await expectCommandError(
      h.gateway.commands.sendCommand('CMD-MUTE', 'Reset', { type: 'Hard' }, 300),
      PileCommandErrorCode.Timeout,
    );
    await expectCommandError(
      replica.commands.sendCommand('CMD-MUTE', 'Reset', { type: 'Hard' }, 300),
      PileCommandErrorCode.Timeout,
    );
    const rows = await commandRows('CMD-MUTE');
    expect(rows.map((r) => r.status)).toEqual(['timeout', 'timeout']);
  });

  it("reports the pile's CallError", async () => {
    const password = await h.addPile('CMD-NI');
    await h.connect('CMD-NI', password); // handles nothing: ocpp-rpc answers NotImplemented
    const error = await expectCommandError(
      h.gateway.commands.sendCommand('CMD-NI', 'ClearCache', {}),
      PileCommandErrorCode.PileError,
    );
    expect(error.details).toMatchObject({ errorCode: 'NotImplemented' });
    expect((await commandRows('CMD-NI'))[0].status).toBe('failed');
  });

  it('refuses parameters that break the OCPP schema before anything is sent', async () => {
    await expectCommandError(
      h.gateway.commands.sendCommand('CMD-1', 'Reset', { type: 'Gentle' } as never),
      PileCommandErrorCode.InvalidCommand,
    );
    await expectCommandError(
      h.gateway.commands.sendCommand('CMD-1', 'Fly' as never, {} as never),
      PileCommandErrorCode.InvalidCommand,
    );
  });

  it('Reset makes the pile stop its sessions (HardReset), reconnect and boot again', async () => {
    const session = await pile.startSession(1, 'BUS-R', { autoStop: false });
    await eventually(() => expect(session.transactionId).toBeDefined());
    const boots = h.eventsOfType('pile.booted').length;
    expect(await h.gateway.commands.sendCommand('CMD-1', 'Reset', { type: 'Hard' })).toEqual({
      status: 'Accepted',
    });
    await eventually(() => expect(h.eventsOfType('pile.booted').length).toBeGreaterThan(boots));
    await pile.drained();
    const [row] = await h.query(
      'SELECT stop_reason, stop_kind FROM ocpp_transaction WHERE transaction_id = $1',
      [session.transactionId],
    );
    expect(row).toEqual({ stop_reason: 'HardReset', stop_kind: 'abnormal' });
  });
});
