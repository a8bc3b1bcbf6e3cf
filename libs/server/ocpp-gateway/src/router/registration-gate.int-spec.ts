import type { RPCClient } from 'ocpp-rpc';
import { eventually } from '@voltdepot/server-testing';
import { PileCommandErrorCode, PileCommandException } from '@voltdepot/server-ocpp-commands';
import { bootRequest, GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';

/**
 * OCPP 1.6 §4.2.1 (BootNotification): a pile that is not accepted sends nothing but BootNotification
 * (a Pending pile also what the central system asks for with TriggerMessage), and the central system
 * sends nothing to a Rejected pile, nor RemoteStart/RemoteStopTransaction to a Pending one.
 */
const h = new GatewayTestHarness();

beforeAll(async () => {
  await h.start({ OCPP_BOOT_RETRY_INTERVAL_S: 30, OCPP_MAX_BAD_MESSAGES: 50 });
  await h.addIdTag('BUS-GATE', 'Accepted');
});
afterAll(() => h.stop());

const refusedLogs = (chargePointId: string) =>
  h.logs.filter((l) => l.msg === 'call refused: pile not accepted' && l['chargePointId'] === chargePointId);

async function expectSecurityError(call: Promise<unknown>): Promise<void> {
  await expect(call).rejects.toMatchObject({ rpcErrorCode: 'SecurityError' });
}

async function expectNotAccepted(call: Promise<unknown>): Promise<PileCommandException> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PileCommandException);
  expect((error as PileCommandException).code).toBe(PileCommandErrorCode.PileNotAccepted);
  return error as PileCommandException;
}

const at = () => new Date().toISOString();

/** Every call a pile makes, with valid parameters. */
const pileCalls: [string, Record<string, unknown>][] = [
  ['Heartbeat', {}],
  ['StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' }],
  ['Authorize', { idTag: 'BUS-GATE' }],
  [
    'StartTransaction',
    { connectorId: 1, idTag: 'BUS-GATE', meterStart: 0, timestamp: '2026-05-01T10:00:00Z' },
  ],
  [
    'MeterValues',
    { connectorId: 1, meterValue: [{ timestamp: '2026-05-01T10:01:00Z', sampledValue: [{ value: '5' }] }] },
  ],
  ['StopTransaction', { transactionId: 4711, meterStop: 10, timestamp: '2026-05-01T10:02:00Z' }],
  ['DataTransfer', { vendorId: 'com.example' }],
  ['DiagnosticsStatusNotification', { status: 'Idle' }],
  ['FirmwareStatusNotification', { status: 'Idle' }],
];

describe('a pile that never booted', () => {
  let client: RPCClient;
  beforeAll(async () => {
    client = await h.connect('GATE-NEW', await h.addPile('GATE-NEW', { booted: false }));
  });

  it.each(pileCalls)(
    '%s is refused with a SecurityError, logged, and has no effect',
    async (action, params) => {
      const before = refusedLogs('GATE-NEW').length;
      await expectSecurityError(client.call(action, params));
      expect(refusedLogs('GATE-NEW')).toHaveLength(before + 1);
      expect(refusedLogs('GATE-NEW').at(-1)).toMatchObject({ action, registrationStatus: 'never booted' });
    },
  );

  it('wrote nothing for the refused calls', async () => {
    for (const table of ['ocpp_transaction', 'ocpp_meter_sample', 'connector_status', 'ocpp_stop_quarantine'])
      expect(await h.query(`SELECT 1 FROM ${table} WHERE charge_point_id = 'GATE-NEW'`)).toEqual([]);
  });

  it('gets no commands', async () => {
    await expectNotAccepted(h.gateway.commands.sendCommand('GATE-NEW', 'GetConfiguration', {}));
    const [row] = await h.query<{ status: string; error: string }>(
      `SELECT status, error FROM pile_command WHERE charge_point_id = 'GATE-NEW'`,
    );
    expect(row).toEqual({
      status: 'failed',
      error: expect.stringMatching(/^OCPP_PILE_NOT_ACCEPTED: .*not booted/),
    });
  });

  it('may boot, and once Accepted everything goes through', async () => {
    expect(await client.call('BootNotification', bootRequest)).toMatchObject({ status: 'Accepted' });
    expect(await client.call('Heartbeat', {})).toHaveProperty('currentTime');
    expect(await client.call('StatusNotification', pileCalls[1][1])).toEqual({});
  });
});

describe('a Pending pile', () => {
  let client: RPCClient;
  beforeAll(async () => {
    client = await h.connect('GATE-PEND', await h.addPile('GATE-PEND', { state: 'pending' }));
    client.handle('GetConfiguration', async () => ({ configurationKey: [], unknownKey: [] }));
    client.handle('TriggerMessage', async () => ({ status: 'Accepted' }));
    expect(await client.call('BootNotification', bootRequest)).toMatchObject({
      status: 'Pending',
      interval: 30,
    });
  });

  it.each(pileCalls)('may not send %s', async (action, params) => {
    await expectSecurityError(client.call(action, params));
    expect(refusedLogs('GATE-PEND').at(-1)).toMatchObject({ action, registrationStatus: 'Pending' });
  });

  it("takes the central system's commands, but not RemoteStartTransaction nor RemoteStopTransaction", async () => {
    expect(await h.gateway.commands.sendCommand('GATE-PEND', 'GetConfiguration', {})).toEqual({
      configurationKey: [],
      unknownKey: [],
    });
    await expectNotAccepted(
      h.gateway.commands.sendCommand('GATE-PEND', 'RemoteStartTransaction', { idTag: 'BUS-GATE' }),
    );
    await expectNotAccepted(
      h.gateway.commands.sendCommand('GATE-PEND', 'RemoteStopTransaction', { transactionId: 1 }),
    );
  });

  it('may send a message the central system triggered, once', async () => {
    await expectSecurityError(client.call('StatusNotification', pileCalls[1][1]));
    expect(
      await h.gateway.commands.sendCommand('GATE-PEND', 'TriggerMessage', {
        requestedMessage: 'StatusNotification',
        connectorId: 1,
      }),
    ).toEqual({ status: 'Accepted' });
    expect(await client.call('StatusNotification', { ...pileCalls[1][1], timestamp: at() })).toEqual({});
    await expectSecurityError(client.call('StatusNotification', { ...pileCalls[1][1], timestamp: at() }));
    // Triggering one message does not open the others.
    await expectSecurityError(client.call('Heartbeat', {}));
  });

  it('is accepted at its next boot once the registry says active', async () => {
    await h.query(`UPDATE pile_registry SET state = 'active' WHERE charge_point_id = 'GATE-PEND'`);
    await eventually(async () =>
      expect(await client.call('BootNotification', bootRequest)).toMatchObject({ status: 'Accepted' }),
    );
    expect(await client.call('Heartbeat', {})).toHaveProperty('currentTime');
  });
});

describe('a Rejected pile', () => {
  let client: RPCClient;
  beforeAll(async () => {
    client = await h.connect('GATE-REJ', await h.addPile('GATE-REJ', { state: 'disabled' }));
    expect(await client.call('BootNotification', bootRequest)).toMatchObject({ status: 'Rejected' });
  });

  it.each(pileCalls)('may not send %s', async (action, params) => {
    await expectSecurityError(client.call(action, params));
  });

  it('gets no commands at all', async () => {
    const error = await expectNotAccepted(
      h.gateway.commands.sendCommand('GATE-REJ', 'Reset', { type: 'Soft' }),
    );
    expect(error.message).toMatch(/rejected at boot/);
    expect(error.details).toEqual({ registrationStatus: 'Rejected' });
  });
});

describe('the registration outlives the connection (a pile reconnects without booting)', () => {
  it('an Accepted pile carries on after reconnecting, also on another replica', async () => {
    const password = await h.addPile('GATE-BACK', { booted: false });
    const first = await h.connect('GATE-BACK', password);
    expect(await first.call('BootNotification', bootRequest)).toMatchObject({ status: 'Accepted' });
    await first.close();
    const again = await h.connect('GATE-BACK', password);
    expect(await again.call('Heartbeat', {})).toHaveProperty('currentTime');
    await again.close();
    const replica = await h.startReplica();
    const elsewhere = await h.connect('GATE-BACK', password, { url: `ws://127.0.0.1:${replica.port}/ocpp` });
    expect(await elsewhere.call('Heartbeat', {})).toHaveProperty('currentTime');
    await elsewhere.close();
  });

  it('a Rejected pile stays refused after reconnecting', async () => {
    const password = await h.addPile('GATE-REJ2', { state: 'disabled' });
    const first = await h.connect('GATE-REJ2', password);
    expect(await first.call('BootNotification', bootRequest)).toMatchObject({ status: 'Rejected' });
    await first.close();
    const again = await h.connect('GATE-REJ2', password);
    await expectSecurityError(again.call('StatusNotification', pileCalls[1][1]));
    const [row] = await h.query(
      `SELECT registration_status, vendor, model FROM ocpp_pile_boot WHERE charge_point_id = 'GATE-REJ2'`,
    );
    expect(row).toEqual({ registration_status: 'Rejected', vendor: 'Voltdepot', model: 'Sim-150' });
  });
});
