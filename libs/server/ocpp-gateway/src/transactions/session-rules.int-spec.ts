import type { RPCClient } from 'ocpp-rpc';
import type { TransactionAbandonedV1, TransactionStoppedV1 } from '@voltdepot/shared-events';
import { transactionAbandonedV1Schema } from '@voltdepot/shared-events';
import { loadConfig } from '@voltdepot/server-core';
import type { IdTagInfo } from '@voltdepot/shared-ocpp';
import { ocppGatewayEnvSchema } from '../gateway/ocpp-gateway.config';
import {
  bootRequest,
  GatewayTestHarness,
  requiredGatewayEnv,
} from '../testing/fixtures/gateway-test-harness';
import { SessionSweep } from './session-sweep';
import { StartTransactionWriter, type StartItem } from './start-transaction.writer';
import { StopTransactionWriter, type StopItem } from './stop-transaction.writer';

/**
 * Sessions a pile never stopped are closed by rule (issue #23): a new start on the connector, the
 * connector's first report Available after the pile rebooted, the connector idle past the grace, the
 * session older than the maximum age. Each closes once, with its TransactionAbandoned event, frees the
 * card, and the real StopTransaction, if it comes later, completes the session (afterAbandon).
 */
const h = new GatewayTestHarness();
const starts = new StartTransactionWriter();
const stops = new StopTransactionWriter();
const accepted: IdTagInfo = { status: 'Accepted' };
const HOUR = 3_600_000;

beforeAll(async () => {
  await h.start();
});
afterAll(() => h.stop());

let clock = Date.now() - HOUR;
const at = () => new Date((clock += 1_000)).toISOString();

const start = (chargePointId: string, idTag: string, timestamp: string, connectorId = 1): StartItem => ({
  chargePointId,
  req: { connectorId, idTag, meterStart: 100, timestamp },
  correlationId: `${chargePointId}:start:${timestamp}`,
  tagInfo: accepted,
});
const stop = (
  chargePointId: string,
  transactionId: number,
  meterStop: number,
  timestamp: string,
): StopItem => ({
  chargePointId,
  req: { transactionId, meterStop, timestamp, reason: 'PowerLoss' },
  correlationId: `${chargePointId}:stop:${transactionId}:${timestamp}`,
});
const startOne = async (item: StartItem) => (await starts.write(h.db.dataSource.manager, [item]))[0];

type Row = { stopped: boolean; rule: string | null; meter_stop_wh: number | null };
const row = async (transactionId: number): Promise<Row> =>
  (
    await h.query<Row>(
      `SELECT stopped_at IS NOT NULL AS stopped, abandon_rule AS rule, meter_stop_wh::float8 AS meter_stop_wh
         FROM ocpp_transaction WHERE transaction_id = $1`,
      [transactionId],
    )
  )[0];
const abandoned = (transactionId: number) =>
  h.query<{ event_id: string; payload: TransactionAbandonedV1 }>(
    `SELECT event_id, payload FROM outbox_event
      WHERE type = 'transaction.abandoned' AND (payload->>'transactionId')::int = $1`,
    [transactionId],
  );
/** StatusNotification of `client` (a pile): `status(connectorId, status)`. */
const reportStatus = (client: RPCClient) => (connectorId: number, status: string) =>
  client.call('StatusNotification', {
    connectorId,
    errorCode: 'NoError',
    status,
    timestamp: new Date().toISOString(),
  });
const energySample = (client: RPCClient, transactionId: number, timestamp: string, value: string) =>
  client.call('MeterValues', {
    connectorId: 1,
    transactionId,
    meterValue: [
      { timestamp, sampledValue: [{ value, measurand: 'Energy.Active.Import.Register', unit: 'Wh' }] },
    ],
  });

describe('rule newStart: a new start on the connector', () => {
  it('closes the session open there, announces it with its last reading, and frees its card', async () => {
    const client = await h.connect('NS-1', await h.addPile('NS-1'));
    await h.addIdTag('NS-TAG-A', 'Accepted');
    const old = await startOne(start('NS-1', 'NS-TAG-A', at()));
    expect(await client.call('Authorize', { idTag: 'NS-TAG-A' })).toEqual({
      idTagInfo: { status: 'ConcurrentTx' },
    });
    const sampledAt = at();
    await energySample(client, old.transactionId, sampledAt, '1234.56');
    await energySample(client, old.transactionId, at(), '1300.5x'); // unparseable: not the last reading
    const fresh = await startOne(start('NS-1', 'NS-TAG-B', at()));
    expect(fresh).toMatchObject({ created: true, closed: [old.transactionId] });
    expect(await row(old.transactionId)).toEqual({ stopped: true, rule: 'newStart', meter_stop_wh: null });
    const [event] = await abandoned(old.transactionId);
    expect(event.payload).toEqual({
      chargePointId: 'NS-1',
      connectorId: 1,
      transactionId: old.transactionId,
      idTag: 'NS-TAG-A',
      meterStartWh: 100,
      lastMeterWh: 1234.56,
      lastSampleAt: sampledAt,
      startedAt: expect.any(String),
      closedAt: expect.any(String),
      rule: 'newStart',
    });
    expect(transactionAbandonedV1Schema.safeParse(event.payload).success).toBe(true);
    // The card is free: Authorize and a start elsewhere are Accepted.
    expect(await client.call('Authorize', { idTag: 'NS-TAG-A' })).toEqual({
      idTagInfo: { status: 'Accepted' },
    });
    expect((await startOne(start('NS-9', 'NS-TAG-A', at()))).idTagInfo.status).toBe('Accepted');
  });

  it('lets the same card start again on that connector (the pile rebooted), but not on another one', async () => {
    const first = await startOne(start('NS-2', 'NS-TAG-C', at()));
    const again = await startOne(start('NS-2', 'NS-TAG-C', at()));
    expect(again).toMatchObject({ created: true, idTagStatus: 'Accepted', closed: [first.transactionId] });
    const elsewhere = await startOne(start('NS-3', 'NS-TAG-C', at()));
    expect(elsewhere.idTagStatus).toBe('ConcurrentTx');
    expect(elsewhere.closed).toBeUndefined();
  });

  it('closes nothing twice: a retried start, an older start replayed late, a start on another connector', async () => {
    const older = at();
    const open = await startOne(start('NS-4', 'NS-TAG-D', at()));
    // Started before the open one: a start replayed late, it does not end the later session.
    const replayed = await startOne(start('NS-4', 'NS-TAG-X', older));
    expect(replayed).toMatchObject({ created: true });
    expect(replayed.closed).toBeUndefined();
    const other = await startOne(start('NS-4', 'NS-TAG-E', at(), 2));
    expect(other.closed).toBeUndefined();
    const next = start('NS-4', 'NS-TAG-F', at());
    expect((await startOne(next)).closed?.sort()).toEqual(
      [open.transactionId, replayed.transactionId].sort(),
    );
    expect(await startOne(next)).toMatchObject({ created: false });
    expect(await abandoned(open.transactionId)).toHaveLength(1);
  });

  it('in one batch: the later start on a connector closes the earlier one; several open ones close each', async () => {
    const [a, b] = await starts.write(h.db.dataSource.manager, [
      start('NS-5', 'NS-TAG-G', at()),
      start('NS-5', 'NS-TAG-H', at()),
    ]);
    expect(b.closed).toEqual([a.transactionId]);
    // Transactions left open side by side before these rules existed: a new start closes them all.
    const [{ transaction_id: legacy }] = await h.query<{ transaction_id: number }>(
      `INSERT INTO ocpp_transaction (charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at)
       VALUES ('NS-5', 1, 'NS-TAG-OLD', 'Accepted', 7, now() - interval '2 days') RETURNING transaction_id`,
    );
    const c = await startOne(start('NS-5', 'NS-TAG-I', at()));
    expect(c.closed?.sort()).toEqual([b.transactionId, legacy].sort());
    const events = [...(await abandoned(b.transactionId)), ...(await abandoned(legacy))];
    expect(events).toHaveLength(2);
    expect(events[0].event_id).not.toBe(events[1].event_id);
    expect(events.find((e) => e.payload.transactionId === legacy)!.payload).not.toHaveProperty('lastMeterWh');
  });
});

describe('the real StopTransaction of a session closed by rule', () => {
  it('completes it (afterAbandon); the same stop again has no effect, another one is a repeat', async () => {
    const lost = await startOne(start('AA-1', 'AA-TAG', at()));
    await startOne(start('AA-1', 'AA-TAG-2', at()));
    const stoppedAt = at();
    const [outcome] = await stops.write(h.db.dataSource.manager, [
      stop('AA-1', lost.transactionId, 900, stoppedAt),
    ]);
    expect(outcome).toEqual({ outcome: 'stopped', afterAbandon: true });
    expect(await row(lost.transactionId)).toEqual({ stopped: true, rule: 'newStart', meter_stop_wh: 900 });
    const events = await h.query<{ payload: TransactionStoppedV1 }>(
      `SELECT payload FROM outbox_event WHERE type = 'transaction.stopped' AND (payload->>'transactionId')::int = $1`,
      [lost.transactionId],
    );
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ meterStopWh: 900, energyWh: 800, timestamp: stoppedAt, afterAbandon: true }),
    ]);
    const again = await stops.write(h.db.dataSource.manager, [
      { ...stop('AA-1', lost.transactionId, 900, stoppedAt), correlationId: 'AA-1:replayed' },
      stop('AA-1', lost.transactionId, 950, at()),
    ]);
    expect(again).toEqual([{ outcome: 'already-stopped' }, { outcome: 'repeated', disagrees: true }]);
  });

  it('is announced without afterAbandon when no rule closed the session', async () => {
    const plain = await startOne(start('AA-2', 'AA-TAG-3', at()));
    const [outcome] = await stops.write(h.db.dataSource.manager, [
      stop('AA-2', plain.transactionId, 500, at()),
    ]);
    expect(outcome).toEqual({ outcome: 'stopped' });
    const [{ payload }] = await h.query<{ payload: TransactionStoppedV1 }>(
      `SELECT payload FROM outbox_event WHERE type = 'transaction.stopped' AND (payload->>'transactionId')::int = $1`,
      [plain.transactionId],
    );
    expect(payload).not.toHaveProperty('afterAbandon');
  });
});

describe('rule rebooted: the connector reports Available after the pile booted again', () => {
  it('closes the sessions on it recorded before the boot, answering the notification after the commit', async () => {
    const client = await h.connect('RB-1', await h.addPile('RB-1'));
    const started = async (connectorId: number, idTag: string) =>
      (await client.call('StartTransaction', {
        connectorId,
        idTag,
        meterStart: 10,
        timestamp: new Date().toISOString(),
      })) as { transactionId: number };
    await h.addIdTag('RB-TAG-1', 'Accepted');
    await h.addIdTag('RB-TAG-2', 'Accepted');
    const one = await started(1, 'RB-TAG-1');
    const two = await started(2, 'RB-TAG-2');
    const status = reportStatus(client);
    await status(1, 'Charging');
    await status(2, 'Charging');
    // A reconnection without a boot: an Available report is no reason (the stop may follow it).
    await status(1, 'Available');
    expect((await row(one.transactionId)).stopped).toBe(false);
    await status(1, 'Charging');

    await client.call('BootNotification', bootRequest);
    await status(0, 'Available');
    await status(1, 'Available'); // first report since the boot: the session is lost
    await status(2, 'SuspendedEV'); // the pile resumed this one after its reboot
    expect(await row(one.transactionId)).toMatchObject({ stopped: true, rule: 'rebooted' });
    expect((await row(two.transactionId)).stopped).toBe(false);
    // Later reports do not count as the first since the boot: connector 2 is left to the idle rule.
    await status(2, 'Available');
    await status(1, 'Available');
    expect((await row(two.transactionId)).stopped).toBe(false);
    expect(await abandoned(one.transactionId)).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ rule: 'rebooted', connectorId: 1 }) }),
    ]);
    expect(await client.call('Authorize', { idTag: 'RB-TAG-1' })).toEqual({
      idTagInfo: { status: 'Accepted' },
    });
    // The copy kept in memory for when the database is down forgot it too.
    expect(h.gateway.openTransactions.hasInMemory('RB-TAG-1')).toBe(false);
    expect(h.gateway.openTransactions.hasInMemory('RB-TAG-2')).toBe(true);
    expect(await client.call('Authorize', { idTag: 'RB-TAG-2' })).toEqual({
      idTagInfo: { status: 'ConcurrentTx' },
    });
  });
});

describe('the session sweep (rules connectorIdle and maxAge)', () => {
  const GRACE_MS = 600_000; // the default OCPP_SESSION_IDLE_GRACE_S
  const inFuture = (ms: number) => new Date(Date.now() + ms);
  const closedBy = (closed: { transactionId: number; rule: string }[], ids: number[]) =>
    closed.filter((c) => ids.includes(c.transactionId)).map((c) => [c.transactionId, c.rule]);

  it('closes a session whose connector has been Available or Finishing past the grace, once, across replicas', async () => {
    const client = await h.connect('SW-1', await h.addPile('SW-1'));
    await h.addIdTag('SW-TAG-A', 'Accepted');
    const a = await startOne(start('SW-1', 'SW-TAG-A', at(), 1));
    const b = await startOne(start('SW-1', 'SW-TAG-B', at(), 2));
    const status = reportStatus(client);
    await status(1, 'Available');
    await status(2, 'Finishing');
    expect(
      closedBy(await h.gateway.sessionSweep.runOnce(inFuture(GRACE_MS - 60_000)), [a.transactionId]),
    ).toEqual([]);
    // Two replicas sweep at the same moment: each session is closed by one of them, announced once.
    const other = new SessionSweep(h.db.dataSource, { idleGraceS: 600, maxAgeS: 86_400, everyMs: 0 });
    const when = inFuture(GRACE_MS + 1_000);
    const [mine, theirs] = await Promise.all([h.gateway.sessionSweep.runOnce(when), other.runOnce(when)]);
    const ids = [a.transactionId, b.transactionId];
    expect([...closedBy(mine, ids), ...closedBy(theirs, ids)].sort()).toEqual(
      [
        [a.transactionId, 'connectorIdle'],
        [b.transactionId, 'connectorIdle'],
      ].sort(),
    );
    expect(await abandoned(a.transactionId)).toHaveLength(1);
    expect(await abandoned(b.transactionId)).toHaveLength(1);
    expect(await client.call('Authorize', { idTag: 'SW-TAG-A' })).toEqual({
      idTagInfo: { status: 'Accepted' },
    });
  });

  it('never closes a session suspended at 0 kW for hours (SuspendedEV / SuspendedEVSE) before the maximum age', async () => {
    const client = await h.connect('SW-2', await h.addPile('SW-2'));
    const ev = await startOne(start('SW-2', 'SW-TAG-C', at(), 1));
    const evse = await startOne(start('SW-2', 'SW-TAG-D', at(), 2));
    const status = reportStatus(client);
    await status(1, 'SuspendedEV');
    await status(2, 'SuspendedEVSE');
    const ids = [ev.transactionId, evse.transactionId];
    await h.gateway.openTransactions.refresh();
    expect(h.gateway.openTransactions.hasInMemory('SW-TAG-C')).toBe(true);
    // A night parked at 0 kW: 14 hours.
    expect(closedBy(await h.gateway.sessionSweep.runOnce(inFuture(14 * HOUR)), ids)).toEqual([]);
    expect((await row(ev.transactionId)).stopped).toBe(false);
    // Past the maximum age (24 h by default) even such a session is closed.
    expect(closedBy(await h.gateway.sessionSweep.runOnce(inFuture(24 * HOUR + 60_000)), ids).sort()).toEqual(
      [
        [ev.transactionId, 'maxAge'],
        [evse.transactionId, 'maxAge'],
      ].sort(),
    );
    expect(h.gateway.openTransactions.hasInMemory('SW-TAG-C')).toBe(false);
  });
});

describe('the rules configuration (OCPP_SESSION_*)', () => {
  const config = (env: Record<string, string> = {}) =>
    loadConfig(ocppGatewayEnvSchema, { ...requiredGatewayEnv, ...env });

  it('defaults: a 10 minute grace, a maximum age of 24 hours, a sweep every minute', () => {
    expect(config()).toMatchObject({
      OCPP_SESSION_IDLE_GRACE_S: 600,
      OCPP_SESSION_MAX_AGE_H: 24,
      OCPP_SESSION_SWEEP_S: 60,
    });
    expect(config({ OCPP_SESSION_SWEEP_S: '0' }).OCPP_SESSION_SWEEP_S).toBe(0);
  });

  it.each([
    ['OCPP_SESSION_MAX_AGE_H', '6'], // shorter than a night: would close planned sessions
    ['OCPP_SESSION_IDLE_GRACE_S', '5'],
    ['OCPP_SESSION_SWEEP_S', '-1'],
    ['OCPP_SESSION_IDLE_GRACE_S', 'soon'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => config({ [name]: value })).toThrow(new RegExp(name));
  });
});
