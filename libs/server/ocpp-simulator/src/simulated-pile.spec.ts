import { CentralSystemActions } from '@voltdepot/shared-ocpp';
import { SimulatedPile, type SimulatedPileOptions } from './simulated-pile';

// The pile is never connected: commands are answered through handleCommand, status changes are local.
const piles: SimulatedPile[] = [];
function pile(options: Partial<SimulatedPileOptions> = {}): SimulatedPile {
  const p = new SimulatedPile({
    url: 'ws://127.0.0.1:1/ocpp',
    chargePointId: 'UNIT-1',
    connectors: 2,
    meterIntervalMs: 20,
    statusStepMs: 10,
    ...options,
  });
  piles.push(p);
  return p;
}
afterEach(async () => {
  for (const p of piles.splice(0)) await p.stop();
});

const until = async (check: () => boolean, timeoutMs = 2_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('SimulatedPile commands', () => {
  it('has an answer for every OCPP 1.6 central-system command and lists its feature profiles', () => {
    const p = pile();
    const handlers = (p as unknown as { commandHandlers: Record<string, unknown> }).commandHandlers;
    expect(Object.keys(handlers).sort()).toEqual([...CentralSystemActions].sort());
    expect(p.configuration.get('SupportedFeatureProfiles')).toBe(
      'Core,FirmwareManagement,LocalAuthListManagement,Reservation,SmartCharging,RemoteTrigger',
    );
    expect(pile({ featureProfiles: ['Core'] }).configuration.get('SupportedFeatureProfiles')).toBe('Core');
  });

  it('SendLocalList: Full replaces, Differential updates and removes, an old version is a VersionMismatch', async () => {
    const p = pile();
    expect(await p.handleCommand('GetLocalListVersion', {})).toEqual({ listVersion: 0 });
    expect(
      await p.handleCommand('SendLocalList', {
        listVersion: 3,
        updateType: 'Full',
        localAuthorizationList: [
          { idTag: 'A', idTagInfo: { status: 'Accepted' } },
          { idTag: 'B', idTagInfo: { status: 'Blocked' } },
        ],
      }),
    ).toEqual({ status: 'Accepted' });
    expect(
      await p.handleCommand('SendLocalList', {
        listVersion: 4,
        updateType: 'Differential',
        localAuthorizationList: [{ idTag: 'A' }, { idTag: 'C', idTagInfo: { status: 'Accepted' } }],
      }),
    ).toEqual({ status: 'Accepted' });
    expect([...p.localAuthorizationList.keys()].sort()).toEqual(['B', 'C']);
    expect(await p.handleCommand('GetLocalListVersion', {})).toEqual({ listVersion: 4 });
    expect(await p.handleCommand('SendLocalList', { listVersion: 4, updateType: 'Full' })).toEqual({
      status: 'VersionMismatch',
    });
    expect(await p.handleCommand('SendLocalList', { listVersion: 5, updateType: 'Full' })).toEqual({
      status: 'Accepted',
    });
    expect(p.localAuthorizationList.size).toBe(0);
    const bare = pile({ featureProfiles: ['Core'] });
    expect(await bare.handleCommand('SendLocalList', { listVersion: 1, updateType: 'Full' })).toEqual({
      status: 'NotSupported',
    });
    expect(await bare.handleCommand('GetLocalListVersion', {})).toEqual({ listVersion: -1 });
  });

  it('offline, a tag the local list blocks cannot start a session', async () => {
    const p = pile();
    await p.handleCommand('SendLocalList', {
      listVersion: 1,
      updateType: 'Full',
      localAuthorizationList: [{ idTag: 'BLOCKED', idTagInfo: { status: 'Blocked' } }],
    });
    await expect(p.startSession(1, 'BLOCKED')).rejects.toThrow('not accepted: Blocked');
  });

  it('ReserveNow holds the gun for its idTag until the start, which carries the reservationId', async () => {
    const p = pile();
    const reserve = { connectorId: 1, expiryDate: inMs(60_000), idTag: 'BUS-1', reservationId: 7 };
    expect(await p.handleCommand('ReserveNow', reserve)).toEqual({ status: 'Accepted' });
    await until(() => p.connectorStatus(1) === 'Reserved');
    expect(await p.handleCommand('ReserveNow', { ...reserve, reservationId: 8 })).toEqual({
      status: 'Occupied',
    });
    expect(await p.handleCommand('RemoteStartTransaction', { connectorId: 1, idTag: 'OTHER' })).toEqual({
      status: 'Rejected',
    });
    await expect(p.startSession(1, 'OTHER')).rejects.toThrow('reserved');
    const session = await p.startSession(1, 'BUS-1', { autoStop: false });
    expect(session.reservationId).toBe(7);
    expect(p.reservation(1)).toBeUndefined();
    expect(p.connectorStatus(1)).toBe('Charging');
    expect(await p.handleCommand('ReserveNow', { ...reserve, reservationId: 9 })).toEqual({
      status: 'Occupied',
    });
  });

  it('ReserveNow answers Faulted, Unavailable and Rejected as the gun and the pile are', async () => {
    const p = pile();
    const reserve = (connectorId: number) => ({
      connectorId,
      expiryDate: inMs(60_000),
      idTag: 'BUS-1',
      reservationId: connectorId + 100,
    });
    await p.reportFault(1, 'GroundFailure');
    expect(await p.handleCommand('ReserveNow', reserve(1))).toEqual({ status: 'Faulted' });
    await p.handleCommand('ChangeAvailability', { connectorId: 2, type: 'Inoperative' });
    expect(await p.handleCommand('ReserveNow', reserve(2))).toEqual({ status: 'Unavailable' });
    expect(await p.handleCommand('ReserveNow', reserve(0))).toEqual({ status: 'Rejected' });
    expect(await pile({ featureProfiles: ['Core'] }).handleCommand('ReserveNow', reserve(1))).toEqual({
      status: 'Rejected',
    });
  });

  it('a reservation ends at its expiry or by CancelReservation', async () => {
    const p = pile();
    await p.handleCommand('ReserveNow', {
      connectorId: 1,
      expiryDate: inMs(150),
      idTag: 'BUS-1',
      reservationId: 1,
    });
    await until(() => p.connectorStatus(1) === 'Reserved');
    await until(() => p.connectorStatus(1) === 'Available');
    expect(p.reservation(1)).toBeUndefined();

    await p.handleCommand('ReserveNow', {
      connectorId: 2,
      expiryDate: inMs(60_000),
      idTag: 'BUS-2',
      reservationId: 2,
    });
    await until(() => p.connectorStatus(2) === 'Reserved');
    expect(await p.handleCommand('CancelReservation', { reservationId: 2 })).toEqual({ status: 'Accepted' });
    await until(() => p.connectorStatus(2) === 'Available');
    expect(await p.handleCommand('CancelReservation', { reservationId: 2 })).toEqual({ status: 'Rejected' });
  });

  it('SetChargingProfile limits the power while charging; ClearChargingProfile lifts it', async () => {
    const p = pile({ timeScale: 3600, maxPowerW: 150_000 });
    const txDefault = {
      chargingProfileId: 11,
      stackLevel: 0,
      chargingProfilePurpose: 'TxDefaultProfile' as const,
      chargingProfileKind: 'Relative' as const,
      chargingSchedule: {
        chargingRateUnit: 'A' as const,
        chargingSchedulePeriod: [{ startPeriod: 0, limit: 25 }],
      },
    };
    expect(
      await p.handleCommand('SetChargingProfile', { connectorId: 0, csChargingProfiles: txDefault }),
    ).toEqual({
      status: 'Accepted',
    });
    // A TxProfile needs a transaction on the gun; a ChargePointMaxProfile belongs to connector 0.
    const tx = { ...txDefault, chargingProfileId: 12, chargingProfilePurpose: 'TxProfile' as const };
    expect(await p.handleCommand('SetChargingProfile', { connectorId: 1, csChargingProfiles: tx })).toEqual({
      status: 'Rejected',
    });
    expect(
      await p.handleCommand('SetChargingProfile', {
        connectorId: 1,
        csChargingProfiles: {
          ...txDefault,
          chargingProfileId: 13,
          chargingProfilePurpose: 'ChargePointMaxProfile',
        },
      }),
    ).toEqual({ status: 'Rejected' });

    const session = await p.startSession(1, 'BUS-1', { startSoc: 20, targetSoc: 95, autoStop: false });
    expect(p.powerLimitW(1)).toBe(10_000); // 25 A x 400 V
    await until(() => session.readings.length >= 4);
    const steps = session.readings.slice(1, 4).map((r, i) => r.energyWh - session.readings[i].energyWh);
    // 20 ms x 3600 = 72 s per sample: 200 Wh at 10 kW (3000 Wh at the unlimited 150 kW).
    for (const wh of steps) expect(wh).toBeCloseTo(200, -1);

    const txW = {
      ...tx,
      chargingSchedule: {
        chargingRateUnit: 'W' as const,
        chargingSchedulePeriod: [{ startPeriod: 0, limit: 5_000 }],
      },
    };
    expect(await p.handleCommand('SetChargingProfile', { connectorId: 1, csChargingProfiles: txW })).toEqual({
      status: 'Accepted',
    });
    expect(p.powerLimitW(1)).toBe(5_000);
    const composite = await p.handleCommand('GetCompositeSchedule', { connectorId: 1, duration: 60 });
    expect(composite).toMatchObject({
      status: 'Accepted',
      connectorId: 1,
      chargingSchedule: { chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 5_000 }] },
    });
    expect(await p.handleCommand('ClearChargingProfile', { chargingProfilePurpose: 'TxProfile' })).toEqual({
      status: 'Accepted',
    });
    expect(p.powerLimitW(1)).toBe(10_000);
    expect(await p.handleCommand('ClearChargingProfile', { id: 11 })).toEqual({ status: 'Accepted' });
    expect(p.powerLimitW(1)).toBeUndefined();
    expect(await p.handleCommand('ClearChargingProfile', { id: 11 })).toEqual({ status: 'Unknown' });
    expect(await p.handleCommand('GetCompositeSchedule', { connectorId: 9, duration: 60 })).toEqual({
      status: 'Rejected',
    });
  });

  it('a TxProfile ends with its transaction', async () => {
    const p = pile();
    await p.startSession(2, 'BUS-2', { autoStop: false });
    await p.handleCommand('SetChargingProfile', {
      connectorId: 2,
      csChargingProfiles: {
        chargingProfileId: 1,
        stackLevel: 0,
        chargingProfilePurpose: 'TxProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: {
          chargingRateUnit: 'W',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 7_000 }],
        },
      },
    });
    expect(p.chargingProfiles(2)).toHaveLength(1);
    await p.stopSession(2);
    expect(p.chargingProfiles(2)).toEqual([]);
  });

  it('UpdateFirmware steps Downloading -> Downloaded -> Installing -> Installed after the retrieve date', async () => {
    const p = pile();
    const seen: string[] = [];
    p.on('firmwareStatus', (s: string) => seen.push(s));
    expect(
      await p.handleCommand('UpdateFirmware', {
        location: 'https://fw.example/sim-2.0.bin',
        retrieveDate: inMs(100),
      }),
    ).toEqual({});
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([]);
    await until(() => p.firmwareStatus === 'Installed');
    expect(seen).toEqual(['Downloading', 'Downloaded', 'Installing', 'Installed']);
  });

  it('GetDiagnostics answers a file name, then reports Uploading -> Uploaded', async () => {
    const p = pile();
    const seen: string[] = [];
    p.on('diagnosticsStatus', (s: string) => seen.push(s));
    const answer = await p.handleCommand('GetDiagnostics', { location: 'ftp://logs.example/' });
    expect(answer.fileName).toMatch(/^diagnostics-UNIT-1-\d{8}T\d{6}\d{3}Z\.log$/);
    await until(() => p.diagnosticsStatus === 'Uploaded');
    expect(seen).toEqual(['Uploading', 'Uploaded']);
    await expect(
      pile({ featureProfiles: ['Core'] }).handleCommand('GetDiagnostics', { location: 'ftp://x/' }),
    ).rejects.toMatchObject({ rpcErrorCode: 'NotSupported' });
  });

  it('DataTransfer echoes its own vendor extension and refuses unknown vendors and messages', async () => {
    const p = pile();
    expect(
      await p.handleCommand('DataTransfer', { vendorId: 'Voltdepot', messageId: 'Echo', data: 'x' }),
    ).toEqual({
      status: 'Accepted',
      data: 'x',
    });
    expect(await p.handleCommand('DataTransfer', { vendorId: 'Voltdepot', messageId: 'Nope' })).toEqual({
      status: 'UnknownMessageId',
    });
    expect(await p.handleCommand('DataTransfer', { vendorId: 'Acme' })).toEqual({
      status: 'UnknownVendorId',
    });
  });
});

describe('SimulatedPile field behaviours (queued while offline, so every message can be read)', () => {
  type Sampled = { value: string; measurand?: string; context?: string };
  type MeterValue = { timestamp: string; sampledValue: Sampled[] };
  const energyOf = (params: Record<string, unknown>) =>
    (params['meterValue'] as MeterValue[]).flatMap((mv) =>
      mv.sampledValue
        .filter((s) => s.measurand === 'Energy.Active.Import.Register')
        .map((s) => ({ at: mv.timestamp, value: s.value, context: s.context })),
    );

  it('a decimal register: samples with two decimals, meterStart and meterStop whole Wh rounded down', async () => {
    const p = pile({ decimalRegister: true, timeScale: 37 });
    const session = await p.startSession(1, 'BUS-1', { autoStop: false });
    await until(() => session.readings.length >= 4);
    await p.stopSession(1, 'Local');
    const messages = p.queuedMessages();
    const samples = messages.filter((m) => m.action === 'MeterValues').flatMap((m) => energyOf(m.params));
    expect(samples.length).toBeGreaterThanOrEqual(3);
    for (const { value } of samples) expect(value).toMatch(/^\d+\.\d{2}$/);
    expect(samples.some(({ value }) => !value.endsWith('.00'))).toBe(true);
    const stop = messages.find((m) => m.action === 'StopTransaction')!.params;
    const [end] = energyOf({ meterValue: stop['transactionData'] });
    expect(end).toMatchObject({ context: 'Transaction.End', value: expect.stringMatching(/^\d+\.\d{2}$/) });
    expect(stop['meterStop']).toBe(Math.floor(Number(end.value)));
    expect(session.meterStopWh).toBe(stop['meterStop']);
    expect(Number.isInteger(session.meterStartWh)).toBe(true);
  });

  it('a late sample: a MeterValues of the transaction stamped lateSampleMs after the stop, above meterStop', async () => {
    const p = pile({ decimalRegister: true, lateSampleMs: 80 });
    await p.startSession(2, 'BUS-2', { autoStop: false });
    const session = await p.stopSession(2, 'EVDisconnected');
    const messages = p.queuedMessages();
    const stopIndex = messages.findIndex((m) => m.action === 'StopTransaction');
    const late = messages[stopIndex + 1];
    expect(late.action).toBe('MeterValues');
    const [sample] = energyOf(late.params);
    expect(Date.parse(sample.at) - Date.parse(session.stoppedAt!)).toBe(80);
    expect(Number(sample.value)).toBeGreaterThan(session.meterStopWh!);
    expect(session.lateSample).toEqual({ at: sample.at, energyWh: Number(sample.value) });
    // The next session starts from where the register got to.
    const next = await p.startSession(2, 'BUS-2', { autoStop: false });
    expect(next.meterStartWh).toBe(Math.floor(Number(sample.value)));
  });

  it('a double stop: a second StopTransaction of the same transaction, another reason, a higher meterStop', async () => {
    const p = pile();
    await p.startSession(1, 'BUS-1', { autoStop: false, doubleStop: { extraWh: 120 } });
    const session = await p.stopSession(1, 'EVDisconnected');
    const stops = p.queuedMessages().filter((m) => m.action === 'StopTransaction');
    expect(stops.map((s) => [s.params['meterStop'], s.params['reason']])).toEqual([
      [session.meterStopWh, 'EVDisconnected'],
      [session.meterStopWh! + 120, 'Other'],
    ]);
    expect(stops[1].params['transactionId']).toBe(stops[0].params['transactionId']);
    expect(stops[1].params['transactionData']).toBeUndefined();
    expect(session.repeatedStop).toMatchObject({ meterStopWh: session.meterStopWh! + 120, reason: 'Other' });
    // Billed on the first: the pile's own record keeps the first stop.
    expect(session.energyWh).toBe(session.meterStopWh! - session.meterStartWh);
  });

  it('a replayed stop: the very same StopTransaction sent twice', async () => {
    const p = pile();
    await p.startSession(1, 'BUS-1', { autoStop: false, replayStop: true });
    const session = await p.stopSession(1, 'EVDisconnected');
    const stops = p.queuedMessages().filter((m) => m.action === 'StopTransaction');
    expect(stops).toHaveLength(2);
    expect(stops[1].params).toEqual(stops[0].params);
    expect(stops[0].params).toMatchObject({ meterStop: session.meterStopWh, reason: 'EVDisconnected' });
    const unreplayed = pile();
    await unreplayed.startSession(1, 'BUS-1', { autoStop: false });
    await unreplayed.stopSession(1, 'EVDisconnected');
    expect(unreplayed.queuedMessages().filter((m) => m.action === 'StopTransaction')).toHaveLength(1);
  });

  it('Charging -> Available without Finishing with skipFinishing; Finishing in between otherwise', async () => {
    const seen = (p: SimulatedPile) => {
      const statuses: string[] = [];
      p.on('status', (connectorId: number, status: string) => connectorId === 1 && statuses.push(status));
      return statuses;
    };
    const direct = pile({ skipFinishing: true });
    const directSeen = seen(direct);
    await direct.startSession(1, 'BUS-1', { autoStop: false, holdAfterStop: true });
    await direct.stopSession(1);
    expect(directSeen).toEqual(['Preparing', 'Charging', 'Available']);
    const usual = pile();
    const usualSeen = seen(usual);
    await usual.startSession(1, 'BUS-1', { autoStop: false });
    await usual.stopSession(1);
    expect(usualSeen).toEqual(['Preparing', 'Charging', 'Finishing', 'Available']);
  });

  it('forgetSession: the gun goes idle and no StopTransaction is ever queued', async () => {
    const p = pile();
    await p.startSession(1, 'BUS-1', { autoStop: false });
    const session = await p.forgetSession(1);
    expect(session).toMatchObject({ abandoned: 'forgotten', stoppedAt: expect.any(String) });
    expect(session.reason).toBeUndefined();
    expect(p.connectorStatus(1)).toBe('Available');
    expect(p.queuedMessages().map((m) => m.action)).not.toContain('StopTransaction');
    await p.startSession(2, 'BUS-2', { autoStop: false });
    await p.forgetSession(2, 'Finishing');
    expect(p.connectorStatus(2)).toBe('Finishing');
  });

  it('vanish: the sessions are left open, queued messages are lost, the pile starts nothing any more', async () => {
    const p = pile();
    await p.startSession(1, 'BUS-1', { autoStop: false });
    await p.startSession(2, 'BUS-2', { autoStop: false });
    const left = await p.vanish();
    expect(left.map((s) => [s.connectorId, s.abandoned])).toEqual([
      [1, 'vanished'],
      [2, 'vanished'],
    ]);
    expect(p.pendingMessages).toBe(0);
    expect(p.gone).toBe(true);
    await expect(p.startSession(1, 'BUS-3')).rejects.toThrow('gone');
  });

  it('powerLoss: every session ends without a stop; queued messages are lost unless the stop is to be replayed', async () => {
    // Nothing listens at the pile's url: it cannot boot again, which is not what this test is about.
    const p = pile();
    await p.startSession(1, 'BUS-1', { autoStop: false });
    await p.startSession(2, 'BUS-2', { autoStop: false });
    const cut = p.sessions.slice();
    await expect(p.powerLoss()).rejects.toThrow();
    expect(cut.map((s) => [s.abandoned, s.reason])).toEqual([
      ['powerLoss', 'PowerLoss'],
      ['powerLoss', 'PowerLoss'],
    ]);
    expect([p.connectorStatus(1), p.connectorStatus(2)]).toEqual(['Available', 'Available']);
    expect(p.pendingMessages).toBe(0);

    const kept = pile();
    await kept.startSession(1, 'BUS-1', { autoStop: false });
    await expect(kept.powerLoss({ replayStopAfterMs: 10 })).rejects.toThrow();
    expect(kept.queuedMessages().map((m) => m.action)).toEqual(['StartTransaction']);
  });

  it('suspendSession: the session goes on at 0 kW until resumeSession', async () => {
    const p = pile({ timeScale: 600 });
    const session = await p.startSession(1, 'BUS-1', { autoStop: false, startSoc: 20 });
    await until(() => session.readings.length >= 3);
    await p.suspendSession(1, 'SuspendedEV');
    expect(p.connectorStatus(1)).toBe('SuspendedEV');
    const at = session.readings.length;
    await until(() => session.readings.length >= at + 3);
    const flat = session.readings.slice(at).map((r) => r.energyWh);
    expect(new Set(flat).size).toBe(1);
    await p.resumeSession(1);
    expect(p.connectorStatus(1)).toBe('Charging');
    const resumed = session.readings.length;
    await until(() => session.readings.length >= resumed + 2);
    expect(session.readings.at(-1)!.energyWh).toBeGreaterThan(flat[0]);
  });
});
