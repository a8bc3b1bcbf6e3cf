/**
 * OCPP 1.6J conformance: a real gateway and simulated piles, one test per behaviour. Every central-system
 * command goes through the gateway's command interface (`CommandService.sendCommand`) and the test checks
 * both the pile's answer and its effect as the gateway saw it; then the pile-side behaviours.
 */
import { SimulatedPile, type SimulatedPileOptions } from '@voltdepot/server-ocpp-simulator';
import type { CentralSystemAction, CentralSystemMessages } from '@voltdepot/shared-ocpp';
import { eventually } from '@voltdepot/server-testing';
import { GatewayTestHarness } from './fixtures/gateway-test-harness';

const h = new GatewayTestHarness();
const piles: SimulatedPile[] = [];
let seq = 0;

beforeAll(async () => {
  await h.start();
  await h.addIdTag('CONF-OK', 'Accepted');
  await h.addIdTag('CONF-OK-2', 'Accepted');
  await h.addIdTag('CONF-BLOCKED', 'Blocked');
  await h.addIdTag('CONF-INVALID', 'Invalid');
  await h.addIdTag('CONF-EXPIRED', 'Accepted', { expiryDate: new Date(Date.now() - 60_000) });
});
afterAll(async () => {
  for (const pile of piles) await pile.stop();
  await h.stop();
});

/** A fresh registered pile (its own id, so tests do not share state), started unless `start: false`. */
async function simulatedPile(
  options: Partial<SimulatedPileOptions> & { start?: boolean; register?: boolean } = {},
): Promise<SimulatedPile> {
  const { start = true, register = true, ...pileOptions } = options;
  const chargePointId = pileOptions.chargePointId ?? `CONF-${++seq}`;
  const password = register ? await h.addPile(chargePointId) : 'not-registered';
  const pile = new SimulatedPile({
    url: h.url,
    chargePointId,
    password,
    connectors: 2,
    meterIntervalMs: 50,
    timeScale: 60,
    reconnectDelayMs: 100,
    bootRetryMs: 100,
    statusStepMs: 30,
    ...pileOptions,
  });
  piles.push(pile);
  if (start) await pile.start();
  return pile;
}

const send = <A extends CentralSystemAction>(
  pile: SimulatedPile,
  action: A,
  params: CentralSystemMessages[A][0],
): Promise<CentralSystemMessages[A][1]> => h.gateway.commands.sendCommand(pile.chargePointId, action, params);

const gatewayStatus = async (pile: SimulatedPile, connectorId: number) =>
  (
    await h.query<{ status: string }>(
      'SELECT status FROM connector_status WHERE charge_point_id = $1 AND connector_id = $2',
      [pile.chargePointId, connectorId],
    )
  )[0]?.status;

/** The payloads of the CALLs of `action` the pile sent, as the gateway's message log has them. */
const callsLogged = async (pile: SimulatedPile, action: string) =>
  (
    await h.query<{ frame: string }>(
      `SELECT frame FROM ocpp_message_log
        WHERE charge_point_id = $1 AND direction = 'in' AND message_type = 2 AND action = $2 ORDER BY id`,
      [pile.chargePointId, action],
    )
  ).map((r) => (JSON.parse(r.frame) as [number, string, string, Record<string, unknown>])[3]);

const transactionRow = async (transactionId: number | undefined) =>
  (
    await h.query<Record<string, unknown>>(
      `SELECT charge_point_id, connector_id, id_tag, meter_start_wh::float8 AS meter_start_wh,
              meter_stop_wh::float8 AS meter_stop_wh, stop_reason, reservation_id
         FROM ocpp_transaction WHERE transaction_id = $1`,
      [transactionId],
    )
  )[0];

const started = (pile: SimulatedPile, connectorId: number) =>
  eventually(() => {
    const session = pile.activeSession(connectorId);
    if (session?.transactionId === undefined) throw new Error('no transaction yet');
    return session;
  });

/** An accepted idTag of its own (a tag in an open transaction would get ConcurrentTx elsewhere). */
const freshTag = async () => {
  const idTag = `CONF-TAG-${++seq}`;
  await h.addIdTag(idTag, 'Accepted');
  return idTag;
};

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('commands through the gateway', () => {
  it('RemoteStartTransaction: Accepted, and the pile starts a transaction the gateway records', async () => {
    const pile = await simulatedPile();
    const idTag = await freshTag();
    expect(await send(pile, 'RemoteStartTransaction', { connectorId: 1, idTag })).toEqual({
      status: 'Accepted',
    });
    const session = await started(pile, 1);
    expect(await transactionRow(session.transactionId)).toMatchObject({
      charge_point_id: pile.chargePointId,
      connector_id: 1,
      id_tag: idTag,
    });
    await eventually(async () => expect(await gatewayStatus(pile, 1)).toBe('Charging'));
    expect(await send(pile, 'RemoteStartTransaction', { connectorId: 1, idTag: await freshTag() })).toEqual({
      status: 'Rejected',
    });
  });

  it('RemoteStopTransaction: Accepted, and the transaction ends with reason Remote', async () => {
    const pile = await simulatedPile();
    const session = await pile.startSession(1, await freshTag(), { autoStop: false });
    await started(pile, 1);
    expect(await send(pile, 'RemoteStopTransaction', { transactionId: session.transactionId! })).toEqual({
      status: 'Accepted',
    });
    await eventually(() => expect(session.reason).toBe('Remote'));
    await pile.drained();
    expect(await transactionRow(session.transactionId)).toMatchObject({
      stop_reason: 'Remote',
      meter_stop_wh: session.meterStopWh,
    });
    expect(await send(pile, 'RemoteStopTransaction', { transactionId: 99_999_999 })).toEqual({
      status: 'Rejected',
    });
  });

  it('Reset: Accepted, the pile ends its session and boots again', async () => {
    const pile = await simulatedPile();
    const session = await pile.startSession(2, await freshTag(), { autoStop: false });
    await started(pile, 2);
    expect(await send(pile, 'Reset', { type: 'Hard' })).toEqual({ status: 'Accepted' });
    await eventually(async () => expect(await callsLogged(pile, 'BootNotification')).toHaveLength(2));
    await pile.drained();
    expect(await transactionRow(session.transactionId)).toMatchObject({ stop_reason: 'HardReset' });
    await eventually(() => expect(pile.registrationStatus).toBe('Accepted'));
  });

  it('UnlockConnector: Unlocked, and a session on that gun ends with UnlockCommand', async () => {
    const pile = await simulatedPile();
    const session = await pile.startSession(1, await freshTag(), { autoStop: false });
    await started(pile, 1);
    expect(await send(pile, 'UnlockConnector', { connectorId: 1 })).toEqual({ status: 'Unlocked' });
    await eventually(() => expect(session.reason).toBe('UnlockCommand'));
    await pile.drained();
    expect(await transactionRow(session.transactionId)).toMatchObject({ stop_reason: 'UnlockCommand' });
    expect(await send(pile, 'UnlockConnector', { connectorId: 7 })).toEqual({ status: 'NotSupported' });
  });

  it('ChangeAvailability: the gun goes Unavailable and back to Available', async () => {
    const pile = await simulatedPile();
    expect(await send(pile, 'ChangeAvailability', { connectorId: 2, type: 'Inoperative' })).toEqual({
      status: 'Accepted',
    });
    await eventually(async () => expect(await gatewayStatus(pile, 2)).toBe('Unavailable'));
    expect(await send(pile, 'ChangeAvailability', { connectorId: 2, type: 'Operative' })).toEqual({
      status: 'Accepted',
    });
    await eventually(async () => expect(await gatewayStatus(pile, 2)).toBe('Available'));
  });

  it('ChangeConfiguration: Accepted for a writable key, Rejected for a read-only one, NotSupported for an unknown one', async () => {
    const pile = await simulatedPile();
    expect(await send(pile, 'ChangeConfiguration', { key: 'MeterValueSampleInterval', value: '30' })).toEqual(
      {
        status: 'Accepted',
      },
    );
    expect(pile.configuration.get('MeterValueSampleInterval')).toBe('30');
    expect(await send(pile, 'ChangeConfiguration', { key: 'NumberOfConnectors', value: '4' })).toEqual({
      status: 'Rejected',
    });
    expect(await send(pile, 'ChangeConfiguration', { key: 'NoSuchKey', value: '1' })).toEqual({
      status: 'NotSupported',
    });
  });

  it('GetConfiguration: the keys asked for, with the supported feature profiles', async () => {
    const pile = await simulatedPile();
    expect(
      await send(pile, 'GetConfiguration', {
        key: ['SupportedFeatureProfiles', 'NumberOfConnectors', 'Nope'],
      }),
    ).toEqual({
      configurationKey: [
        {
          key: 'SupportedFeatureProfiles',
          readonly: true,
          value: 'Core,FirmwareManagement,LocalAuthListManagement,Reservation,SmartCharging,RemoteTrigger',
        },
        { key: 'NumberOfConnectors', readonly: true, value: '2' },
      ],
      unknownKey: ['Nope'],
    });
  });

  it('ClearCache: Accepted', async () => {
    const pile = await simulatedPile();
    expect(await send(pile, 'ClearCache', {})).toEqual({ status: 'Accepted' });
  });

  it('DataTransfer: the echo extension answers with the data; an unknown vendor gets UnknownVendorId', async () => {
    const pile = await simulatedPile();
    expect(
      await send(pile, 'DataTransfer', { vendorId: 'Voltdepot', messageId: 'Echo', data: 'ping' }),
    ).toEqual({
      status: 'Accepted',
      data: 'ping',
    });
    expect(await send(pile, 'DataTransfer', { vendorId: 'Acme' })).toEqual({ status: 'UnknownVendorId' });
  });

  it('SendLocalList: Accepted for a newer version, VersionMismatch for the same one; the list is applied', async () => {
    const pile = await simulatedPile();
    const list = {
      listVersion: 5,
      updateType: 'Full' as const,
      localAuthorizationList: [
        { idTag: 'CONF-OK', idTagInfo: { status: 'Accepted' as const } },
        { idTag: 'CONF-BLOCKED', idTagInfo: { status: 'Blocked' as const } },
      ],
    };
    expect(await send(pile, 'SendLocalList', list)).toEqual({ status: 'Accepted' });
    expect(pile.localListVersion).toBe(5);
    expect(pile.localAuthorizationList.get('CONF-BLOCKED')).toEqual({ status: 'Blocked' });
    expect(await send(pile, 'SendLocalList', list)).toEqual({ status: 'VersionMismatch' });
    expect(
      await send(pile, 'SendLocalList', {
        listVersion: 6,
        updateType: 'Differential',
        localAuthorizationList: [{ idTag: 'CONF-BLOCKED' }],
      }),
    ).toEqual({ status: 'Accepted' });
    expect([...pile.localAuthorizationList.keys()]).toEqual(['CONF-OK']);
  });

  it('GetLocalListVersion: 0 before any list, then the version last sent', async () => {
    const pile = await simulatedPile();
    expect(await send(pile, 'GetLocalListVersion', {})).toEqual({ listVersion: 0 });
    await send(pile, 'SendLocalList', { listVersion: 12, updateType: 'Full', localAuthorizationList: [] });
    expect(await send(pile, 'GetLocalListVersion', {})).toEqual({ listVersion: 12 });
  });

  it('ReserveNow: Accepted, the gun is Reserved at the gateway, and the start carries the reservationId', async () => {
    const pile = await simulatedPile();
    const idTag = await freshTag();
    expect(
      await send(pile, 'ReserveNow', {
        connectorId: 1,
        expiryDate: inMs(60_000),
        idTag,
        reservationId: 41,
      }),
    ).toEqual({ status: 'Accepted' });
    expect(pile.connectorStatus(1)).toBe('Reserved');
    await eventually(async () => expect(await gatewayStatus(pile, 1)).toBe('Reserved'));
    expect(
      await send(pile, 'ReserveNow', {
        connectorId: 1,
        expiryDate: inMs(60_000),
        idTag: 'CONF-OK-2',
        reservationId: 42,
      }),
    ).toEqual({ status: 'Occupied' });
    await expect(pile.startSession(1, 'CONF-OK-2')).rejects.toThrow('reserved for another idTag');
    const session = await pile.startSession(1, idTag, { autoStop: false });
    await started(pile, 1);
    expect(await transactionRow(session.transactionId)).toMatchObject({ reservation_id: 41 });
    expect(
      await send(pile, 'ReserveNow', {
        connectorId: 1,
        expiryDate: inMs(60_000),
        idTag: 'CONF-OK-2',
        reservationId: 43,
      }),
    ).toEqual({ status: 'Occupied' });
  });

  it('CancelReservation: Accepted, and the gun is Available again; Rejected for an unknown reservation', async () => {
    const pile = await simulatedPile();
    await send(pile, 'ReserveNow', {
      connectorId: 2,
      expiryDate: inMs(60_000),
      idTag: 'CONF-OK',
      reservationId: 51,
    });
    await eventually(async () => expect(await gatewayStatus(pile, 2)).toBe('Reserved'));
    expect(await send(pile, 'CancelReservation', { reservationId: 51 })).toEqual({ status: 'Accepted' });
    await eventually(async () => expect(await gatewayStatus(pile, 2)).toBe('Available'));
    expect(await send(pile, 'CancelReservation', { reservationId: 51 })).toEqual({ status: 'Rejected' });
  });

  it('SetChargingProfile: Accepted, and the power the pile reports stays at the limit', async () => {
    const pile = await simulatedPile({ maxPowerW: 150_000 });
    const session = await pile.startSession(1, await freshTag(), {
      startSoc: 20,
      targetSoc: 95,
      autoStop: false,
    });
    await started(pile, 1);
    expect(
      await send(pile, 'SetChargingProfile', {
        connectorId: 1,
        csChargingProfiles: {
          chargingProfileId: 1,
          transactionId: session.transactionId,
          stackLevel: 0,
          chargingProfilePurpose: 'TxProfile',
          chargingProfileKind: 'Relative',
          chargingSchedule: {
            chargingRateUnit: 'A',
            chargingSchedulePeriod: [{ startPeriod: 0, limit: 50 }],
          },
        },
      }),
    ).toEqual({ status: 'Accepted' });
    expect(pile.powerLimitW(1)).toBe(20_000); // 50 A x 400 V
    await eventually(async () => {
      const rows = await h.query<{ value: string }>(
        `SELECT value FROM ocpp_meter_sample WHERE transaction_id = $1 AND measurand = 'Power.Active.Import'
          ORDER BY sampled_at DESC LIMIT 1`,
        [session.transactionId],
      );
      expect(Number(rows[0]?.value)).toBe(20_000);
    });
  });

  it('ClearChargingProfile: Accepted when a profile matched (the limit is lifted), else Unknown', async () => {
    const pile = await simulatedPile();
    await send(pile, 'SetChargingProfile', {
      connectorId: 0,
      csChargingProfiles: {
        chargingProfileId: 9,
        stackLevel: 1,
        chargingProfilePurpose: 'TxDefaultProfile',
        chargingProfileKind: 'Absolute',
        chargingSchedule: {
          chargingRateUnit: 'W',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 30_000 }],
        },
      },
    });
    expect(pile.powerLimitW(1)).toBe(30_000);
    expect(await send(pile, 'ClearChargingProfile', { id: 9 })).toEqual({ status: 'Accepted' });
    expect(pile.powerLimitW(1)).toBeUndefined();
    expect(await send(pile, 'ClearChargingProfile', { id: 9 })).toEqual({ status: 'Unknown' });
  });

  it('GetCompositeSchedule: the limits of the stored profiles over the asked duration', async () => {
    const pile = await simulatedPile({ maxPowerW: 150_000 });
    await send(pile, 'SetChargingProfile', {
      connectorId: 0,
      csChargingProfiles: {
        chargingProfileId: 3,
        stackLevel: 0,
        chargingProfilePurpose: 'ChargePointMaxProfile',
        chargingProfileKind: 'Absolute',
        chargingSchedule: {
          startSchedule: new Date().toISOString(),
          duration: 600,
          chargingRateUnit: 'W',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 80_000 }],
        },
      },
    });
    const answer = await send(pile, 'GetCompositeSchedule', { connectorId: 1, duration: 3600 });
    expect(answer).toMatchObject({ status: 'Accepted', connectorId: 1 });
    const periods = answer.chargingSchedule!.chargingSchedulePeriod;
    expect(periods[0]).toEqual({ startPeriod: 0, limit: 80_000 });
    expect(periods.at(-1)!.limit).toBe(150_000);
    expect(periods.at(-1)!.startPeriod).toBeGreaterThan(590);
    expect(await send(pile, 'GetCompositeSchedule', { connectorId: 9, duration: 60 })).toEqual({
      status: 'Rejected',
    });
  });

  it('TriggerMessage: Accepted, and the requested message reaches the gateway', async () => {
    const pile = await simulatedPile();
    expect(await send(pile, 'TriggerMessage', { requestedMessage: 'MeterValues', connectorId: 2 })).toEqual({
      status: 'Accepted',
    });
    await eventually(async () =>
      expect(await callsLogged(pile, 'MeterValues')).toEqual([
        expect.objectContaining({
          connectorId: 2,
          meterValue: [
            expect.objectContaining({ sampledValue: [expect.objectContaining({ context: 'Trigger' })] }),
          ],
        }),
      ]),
    );
  });

  it('UpdateFirmware: answered, then FirmwareStatusNotification Downloading -> Installed reaches the gateway', async () => {
    const pile = await simulatedPile();
    expect(
      await send(pile, 'UpdateFirmware', {
        location: 'https://fw.example/sim-2.0.bin',
        retrieveDate: inMs(100),
      }),
    ).toEqual({});
    await eventually(async () =>
      expect((await callsLogged(pile, 'FirmwareStatusNotification')).map((p) => p['status'])).toEqual([
        'Downloading',
        'Downloaded',
        'Installing',
        'Installed',
      ]),
    );
  });

  it('GetDiagnostics: a file name, then DiagnosticsStatusNotification Uploading -> Uploaded reaches the gateway', async () => {
    const pile = await simulatedPile();
    const answer = await send(pile, 'GetDiagnostics', { location: 'ftp://logs.example/upload/' });
    expect(answer.fileName).toMatch(new RegExp(`^diagnostics-${pile.chargePointId}-.+\\.log$`));
    await eventually(async () =>
      expect((await callsLogged(pile, 'DiagnosticsStatusNotification')).map((p) => p['status'])).toEqual([
        'Uploading',
        'Uploaded',
      ]),
    );
  });
});

describe('pile behaviours', () => {
  it('boot Accepted: the pile reports every connector and heartbeats are answered', async () => {
    const pile = await simulatedPile();
    expect(pile.registrationStatus).toBe('Accepted');
    for (const connectorId of [0, 1, 2])
      await eventually(async () => expect(await gatewayStatus(pile, connectorId)).toBe('Available'));
    expect(await pile.call('Heartbeat', {})).toHaveProperty('currentTime');
  });

  it('boot Pending: the pile retries until the registry activates it', async () => {
    const id = `CONF-${++seq}`;
    const password = await h.addPile(id, { state: 'pending' });
    const pile = await simulatedPile({ chargePointId: id, password, register: false, start: false });
    const boots: string[] = [];
    pile.on('boot', (status: string) => boots.push(status));
    const booting = pile.start();
    await eventually(() => expect(boots).toContain('Pending'));
    await h.query(`UPDATE pile_registry SET state = 'active' WHERE charge_point_id = $1`, [id]);
    await booting;
    expect(boots.at(-1)).toBe('Accepted');
  });

  it('boot Rejected: a disabled pile is told so and may send nothing else', async () => {
    const id = `CONF-${++seq}`;
    const password = await h.addPile(id, { state: 'disabled' });
    const pile = await simulatedPile({ chargePointId: id, password, register: false, start: false });
    const boots: string[] = [];
    pile.on('boot', (status: string) => boots.push(status));
    void pile.start().catch(() => undefined);
    await eventually(() => expect(boots).toContain('Rejected'));
    await expect(pile.call('Heartbeat', {})).rejects.toThrow();
    await pile.stop();
  });

  it.each([
    ['CONF-OK', 'Accepted'],
    ['CONF-INVALID', 'Invalid'],
    ['CONF-BLOCKED', 'Blocked'],
    ['CONF-EXPIRED', 'Expired'],
  ])('authorize %s: %s', async (idTag, status) => {
    const pile = await simulatedPile();
    expect(await pile.call('Authorize', { idTag })).toMatchObject({ idTagInfo: { status } });
    if (status === 'Accepted') await expect(pile.startSession(1, idTag)).resolves.toBeDefined();
    else await expect(pile.startSession(1, idTag)).rejects.toThrow(`not accepted: ${status}`);
  });

  it('start and stop: the gateway records the meter readings and reason the pile sent', async () => {
    const pile = await simulatedPile();
    const session = await pile.startSession(2, await freshTag(), { autoStop: false });
    await started(pile, 2);
    await new Promise((r) => setTimeout(r, 200));
    await pile.stopSession(2, 'EVDisconnected');
    await pile.drained();
    expect(await transactionRow(session.transactionId)).toMatchObject({
      connector_id: 2,
      meter_start_wh: session.meterStartWh,
      meter_stop_wh: session.meterStopWh,
      stop_reason: 'EVDisconnected',
    });
  });

  it('meter values are attributed to the running transaction', async () => {
    const pile = await simulatedPile();
    const session = await pile.startSession(1, await freshTag(), { autoStop: false });
    await started(pile, 1);
    await eventually(async () => {
      const [row] = await h.query<{ n: string; max: string }>(
        `SELECT count(*) AS n, max(value)::text AS max FROM ocpp_meter_sample
          WHERE transaction_id = $1 AND measurand = 'Energy.Active.Import.Register'`,
        [session.transactionId],
      );
      expect(Number(row.n)).toBeGreaterThanOrEqual(3);
      expect(Number(row.max)).toBeGreaterThan(session.meterStartWh);
    });
  });

  it('a duplicate start gets the same transactionId, a duplicate stop has no second effect', async () => {
    const pile = await simulatedPile();
    const start = {
      connectorId: 1,
      idTag: 'CONF-OK-2',
      meterStart: 500,
      timestamp: new Date().toISOString(),
    };
    const messageId = SimulatedPile.messageId();
    const first = await pile.sendWithMessageId<{ transactionId: number }>(
      'StartTransaction',
      start,
      messageId,
    );
    const again = await pile.sendWithMessageId<{ transactionId: number }>(
      'StartTransaction',
      start,
      messageId,
    );
    const retried = await pile.call<{ transactionId: number }>('StartTransaction', start);
    expect(again.transactionId).toBe(first.transactionId);
    expect(retried.transactionId).toBe(first.transactionId);
    const stop = { transactionId: first.transactionId, meterStop: 900, timestamp: new Date().toISOString() };
    await pile.call('StopTransaction', stop);
    await pile.call('StopTransaction', { ...stop, meterStop: 999 });
    expect(await transactionRow(first.transactionId)).toMatchObject({
      meter_start_wh: 500,
      meter_stop_wh: 900,
    });
  });

  it('a stop for an unknown transaction is accepted and quarantined', async () => {
    const pile = await simulatedPile();
    // Answered (so the pile does not retry it forever), and kept aside for an operator.
    await pile.call('StopTransaction', {
      transactionId: 876_543,
      meterStop: 100,
      timestamp: new Date().toISOString(),
      reason: 'PowerLoss',
    });
    expect(
      await h.query(
        'SELECT reason FROM ocpp_stop_quarantine WHERE charge_point_id = $1 AND transaction_id = $2',
        [pile.chargePointId, 876_543],
      ),
    ).toEqual([{ reason: 'PowerLoss' }]);
  });

  it('offline replay: messages queued while offline arrive in order once back, with the same message ids', async () => {
    const pile = await simulatedPile({ sameMessageIdOnRetry: true });
    const session = await pile.startSession(1, await freshTag(), { autoStop: false });
    await started(pile, 1);
    await pile.goOffline();
    await new Promise((r) => setTimeout(r, 250));
    await pile.stopSession(1, 'PowerLoss');
    expect(pile.pendingMessages).toBeGreaterThan(1);
    await pile.goOnline();
    await pile.drained();
    expect(await transactionRow(session.transactionId)).toMatchObject({
      meter_stop_wh: session.meterStopWh,
      stop_reason: 'PowerLoss',
    });
    const flagged = await h.query(
      'SELECT flag FROM ocpp_meter_sample WHERE transaction_id = $1 AND flag IS NOT NULL',
      [session.transactionId],
    );
    expect(flagged).toEqual([]);
  });

  it('wrong password: the connection is refused and the gateway logs the failure', async () => {
    const id = `CONF-${++seq}`;
    await h.addPile(id);
    const pile = await simulatedPile({ chargePointId: id, password: 'wrong', register: false, start: false });
    await expect(pile.start()).rejects.toThrow();
    await pile.stop();
    expect(h.logs.some((l) => l.msg === 'pile authentication failed' && l['chargePointId'] === id)).toBe(
      true,
    );
  });

  it('unknown pile: the connection is refused and the attempt recorded', async () => {
    const pile = await simulatedPile({ chargePointId: 'CONF-GHOST', register: false, start: false });
    await expect(pile.start()).rejects.toThrow();
    await pile.stop();
    await eventually(async () =>
      expect(
        await h.query(`SELECT attempts FROM unknown_pile_attempt WHERE charge_point_id = 'CONF-GHOST'`),
      ).toEqual([{ attempts: 1 }]),
    );
  });

  it('replaced connection: a second connection of the same pile takes over, commands reach the new one', async () => {
    const first = await simulatedPile({ reconnectDelayMs: 60_000 });
    const second = await simulatedPile({
      chargePointId: first.chargePointId,
      password: `pw-${first.chargePointId}-secret`,
      register: false,
    });
    await eventually(() => expect(first.online).toBe(false));
    await first.stop();
    expect(second.online).toBe(true);
    expect(await send(second, 'GetLocalListVersion', {})).toEqual({ listVersion: 0 });
    await send(second, 'SendLocalList', { listVersion: 2, updateType: 'Full', localAuthorizationList: [] });
    expect(second.localListVersion).toBe(2);
    expect(first.localListVersion).toBe(0);
  });
});
