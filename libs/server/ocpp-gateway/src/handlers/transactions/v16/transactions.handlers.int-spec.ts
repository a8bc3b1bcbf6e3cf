import type { RPCClient } from 'ocpp-rpc';
import { eventually } from '@voltdepot/server-testing';
import type { MeterValuesV1, TransactionStartedV1, TransactionStoppedV1 } from '@voltdepot/shared-events';
import { bootRequest, GatewayTestHarness } from '../../../testing/fixtures/gateway-test-harness';

const h = new GatewayTestHarness();
let client: RPCClient;
let clock = Date.parse('2026-03-01T20:00:00Z');
/** Distinct, increasing timestamps so every test has its own business keys. */
const at = (offsetS = 0) => new Date((clock += 60_000) + offsetS * 1000).toISOString();

type StartConf = { transactionId: number; idTagInfo: { status: string } };

beforeAll(async () => {
  await h.start();
  await h.addIdTag('BUS-101', 'Accepted');
  await h.addIdTag('BUS-102', 'Accepted');
  await h.addIdTag('BUS-103', 'Accepted');
  client = await h.connect('CP-TX', await h.addPile('CP-TX'));
  await client.call('BootNotification', bootRequest);
});
afterAll(() => h.stop());

const start = (req: Record<string, unknown>) => client.call('StartTransaction', req) as Promise<StartConf>;

describe('StartTransaction / StopTransaction', () => {
  it('records the transaction before answering and announces start and stop through the outbox', async () => {
    const startedAt = at();
    const conf = await start({ connectorId: 1, idTag: 'BUS-101', meterStart: 1000, timestamp: startedAt });
    expect(conf.idTagInfo.status).toBe('Accepted');
    expect(
      Number.isInteger(conf.transactionId) && conf.transactionId > 0 && conf.transactionId < 2 ** 31,
    ).toBe(true);
    // Durable at the moment the pile got its answer: the row and its outbox event exist already.
    const [row] = await h.query(`SELECT * FROM ocpp_transaction WHERE transaction_id = $1`, [
      conf.transactionId,
    ]);
    expect(row).toMatchObject({
      charge_point_id: 'CP-TX',
      connector_id: 1,
      id_tag: 'BUS-101',
      meter_start_wh: '1000', // bigint columns read as text
      id_tag_status: 'Accepted',
    });
    expect(
      await h.query(
        `SELECT 1 FROM outbox_event WHERE type = 'transaction.started' AND (payload->>'transactionId')::int = $1`,
        [conf.transactionId],
      ),
    ).toHaveLength(1);

    const started = await h.waitForEvent<TransactionStartedV1>(
      'transaction.started',
      (p) => p.transactionId === conf.transactionId,
    );
    expect(started.payload).toMatchObject({
      chargePointId: 'CP-TX',
      connectorId: 1,
      idTag: 'BUS-101',
      meterStartWh: 1000,
      timestamp: startedAt,
      idTagStatus: 'Accepted',
    });
    expect(started.key).toBe('CP-TX');

    const stoppedAt = at();
    expect(
      await client.call('StopTransaction', {
        transactionId: conf.transactionId,
        meterStop: 181_000,
        timestamp: stoppedAt,
        reason: 'EVDisconnected',
        idTag: 'BUS-101',
      }),
    ).toEqual({
      idTagInfo: { status: 'Accepted' },
    });
    const [stoppedRow] = await h.query(
      `SELECT meter_stop_wh, stop_reason, stop_kind, stopped_at FROM ocpp_transaction WHERE transaction_id = $1`,
      [conf.transactionId],
    );
    expect(stoppedRow).toMatchObject({
      meter_stop_wh: '181000',
      stop_reason: 'EVDisconnected',
      stop_kind: 'normal',
    });
    const stopped = await h.waitForEvent<TransactionStoppedV1>(
      'transaction.stopped',
      (p) => p.transactionId === conf.transactionId,
    );
    expect(stopped.payload).toMatchObject({
      meterStartWh: 1000,
      meterStopWh: 181_000,
      energyWh: 180_000,
      reason: 'EVDisconnected',
      stopKind: 'normal',
      quarantined: false,
      connectorId: 1,
    });
  });

  it.each([
    [undefined, 'Local', 'normal'],
    ['Remote', 'Remote', 'normal'],
    ['EmergencyStop', 'EmergencyStop', 'abnormal'],
    ['PowerLoss', 'PowerLoss', 'abnormal'],
    ['HardReset', 'HardReset', 'abnormal'],
  ])('a stop with reason %s is published as %s / %s', async (reason, expectedReason, stopKind) => {
    const { transactionId } = await start({
      connectorId: 2,
      idTag: 'BUS-102',
      meterStart: 0,
      timestamp: at(),
    });
    await client.call('StopTransaction', {
      transactionId,
      meterStop: 5000,
      timestamp: at(),
      ...(reason ? { reason } : {}),
    });
    const stopped = await h.waitForEvent<TransactionStoppedV1>(
      'transaction.stopped',
      (p) => p.transactionId === transactionId,
    );
    expect(stopped.payload).toMatchObject({ reason: expectedReason, stopKind });
  });

  it('returns the same transactionId for a retried start, with a new or the same message id, and announces it once', async () => {
    const req = { connectorId: 1, idTag: 'BUS-103', meterStart: 42, timestamp: at() };
    const first = await start(req);
    const retried = await start(req);
    expect(retried).toEqual(first);
    // Same message id again (a pile that retransmits the identical frame), on a raw socket.
    const { ws, frames } = await h.rawSocket('CP-TX-RAW', await h.addPile('CP-TX-RAW'));
    const rawReq = { ...req, connectorId: 3 };
    ws.send(JSON.stringify([2, 'same-id', 'StartTransaction', rawReq]));
    await eventually(() => expect(frames).toHaveLength(1));
    ws.send(JSON.stringify([2, 'same-id', 'StartTransaction', rawReq]));
    await eventually(() => expect(frames).toHaveLength(2));
    const [a, b] = frames.map((f) => JSON.parse(f) as [number, string, StartConf]);
    expect(a[0]).toBe(3);
    expect(b).toEqual(a);
    ws.close();

    const rows = await h.query(
      `SELECT transaction_id FROM ocpp_transaction WHERE id_tag = 'BUS-103' AND meter_start_wh = 42`,
    );
    expect(rows).toHaveLength(2); // CP-TX and CP-TX-RAW, one each
    await h.waitForEvent<TransactionStartedV1>(
      'transaction.started',
      (p) => p.transactionId === first.transactionId,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(
      h
        .eventsOfType('transaction.started')
        .filter((e) => (e.payload as TransactionStartedV1).transactionId === first.transactionId),
    ).toHaveLength(1);
    await client.call('StopTransaction', {
      transactionId: first.transactionId,
      meterStop: 50,
      timestamp: at(),
    });
  });

  it('gives a repeated StopTransaction no second effect', async () => {
    const { transactionId } = await start({
      connectorId: 1,
      idTag: 'BUS-101',
      meterStart: 0,
      timestamp: at(),
    });
    const stopReq = { transactionId, meterStop: 9000, timestamp: at(), reason: 'Local' };
    await client.call('StopTransaction', stopReq);
    await client.call('StopTransaction', stopReq);
    await client.call('StopTransaction', { ...stopReq, meterStop: 9999, timestamp: at() }); // even a different late stop
    const [row] = await h.query(`SELECT meter_stop_wh FROM ocpp_transaction WHERE transaction_id = $1`, [
      transactionId,
    ]);
    expect(row).toEqual({ meter_stop_wh: '9000' });
    await h.waitForEvent<TransactionStoppedV1>(
      'transaction.stopped',
      (p) => p.transactionId === transactionId,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(
      h
        .eventsOfType('transaction.stopped')
        .filter((e) => (e.payload as TransactionStoppedV1).transactionId === transactionId),
    ).toHaveLength(1);
  });

  it('stores and announces energy registers beyond 32 bits (a lifetime past 2.1 GWh)', async () => {
    const meterStart = 3_000_000_000;
    const { transactionId, idTagInfo } = await start({
      connectorId: 2,
      idTag: 'BUS-102',
      meterStart,
      timestamp: at(),
    });
    expect(idTagInfo.status).toBe('Accepted');
    await client.call('StopTransaction', {
      transactionId,
      meterStop: meterStart + 52_500,
      timestamp: at(),
      reason: 'EVDisconnected',
    });
    const [row] = await h.query(
      `SELECT meter_start_wh, meter_stop_wh FROM ocpp_transaction WHERE transaction_id = $1`,
      [transactionId],
    );
    expect(row).toEqual({ meter_start_wh: '3000000000', meter_stop_wh: '3000052500' });
    const stopped = await h.waitForEvent<TransactionStoppedV1>(
      'transaction.stopped',
      (p) => p.transactionId === transactionId,
    );
    expect(stopped.payload).toMatchObject({
      meterStartWh: meterStart,
      meterStopWh: meterStart + 52_500,
      energyWh: 52_500,
    });
  });

  it('accepts a stop for an unknown transaction and quarantines it (once)', async () => {
    const req = {
      transactionId: 987_654,
      meterStop: 12_345,
      timestamp: at(),
      reason: 'PowerLoss',
      idTag: 'BUS-101',
    };
    expect(await client.call('StopTransaction', req)).toEqual({ idTagInfo: { status: 'Accepted' } });
    expect(await client.call('StopTransaction', req)).toEqual({ idTagInfo: { status: 'Accepted' } });
    const rows = await h.query(
      `SELECT charge_point_id, transaction_id, meter_stop_wh, reason FROM ocpp_stop_quarantine WHERE transaction_id = 987654`,
    );
    expect(rows).toEqual([
      { charge_point_id: 'CP-TX', transaction_id: '987654', meter_stop_wh: '12345', reason: 'PowerLoss' }, // bigint columns read as text
    ]);
    const event = await h.waitForEvent<TransactionStoppedV1>(
      'transaction.stopped',
      (p) => p.transactionId === 987_654,
    );
    expect(event.payload).toMatchObject({ quarantined: true, stopKind: 'abnormal', meterStopWh: 12_345 });
    expect(event.payload.energyWh).toBeUndefined();
  });

  it("quarantines a stop naming another pile's transaction instead of stopping it", async () => {
    const other = await h.connect('CP-TX-OTHER', await h.addPile('CP-TX-OTHER'));
    const { transactionId } = (await other.call('StartTransaction', {
      connectorId: 1,
      idTag: 'BUS-102',
      meterStart: 0,
      timestamp: at(),
    })) as StartConf;
    await client.call('StopTransaction', { transactionId, meterStop: 1, timestamp: at() });
    const [row] = await h.query(`SELECT stopped_at FROM ocpp_transaction WHERE transaction_id = $1`, [
      transactionId,
    ]);
    expect(row).toEqual({ stopped_at: null });
    expect(
      await h.query(
        `SELECT 1 FROM ocpp_stop_quarantine WHERE transaction_id = $1 AND charge_point_id = 'CP-TX'`,
        [transactionId],
      ),
    ).toHaveLength(1);
  });
});

describe('MeterValues', () => {
  const energy = (timestamp: string, value: string, extra: Record<string, string> = {}) => ({
    timestamp,
    sampledValue: [
      { value, measurand: 'Energy.Active.Import.Register', unit: 'Wh', context: 'Sample.Periodic', ...extra },
    ],
  });

  it('attributes samples to the named transaction, and to the open one when none is named', async () => {
    const { transactionId } = await start({
      connectorId: 4,
      idTag: 'BUS-101',
      meterStart: 500,
      timestamp: at(),
    });
    const t1 = at();
    await client.call('MeterValues', {
      connectorId: 4,
      transactionId,
      meterValue: [
        {
          timestamp: t1,
          sampledValue: [
            { value: '12.5', measurand: 'Energy.Active.Import.Register', unit: 'kWh' },
            { value: '150000', measurand: 'Power.Active.Import', unit: 'W' },
            { value: '47', measurand: 'SoC', unit: 'Percent', location: 'EV' },
          ],
        },
      ],
    });
    const t2 = at();
    await client.call('MeterValues', { connectorId: 4, meterValue: [energy(t2, '20000')] });
    const rows = await h.query<{
      transaction_id: number;
      measurand: string;
      value: string;
      unit: string;
      flag: string | null;
    }>(
      `SELECT transaction_id, measurand, value::text, unit, flag FROM ocpp_meter_sample WHERE charge_point_id = 'CP-TX' AND connector_id = 4 ORDER BY sampled_at, measurand`,
    );
    expect(rows).toEqual([
      {
        transaction_id: transactionId,
        measurand: 'Energy.Active.Import.Register',
        value: '12500',
        unit: 'Wh',
        flag: null,
      },
      {
        transaction_id: transactionId,
        measurand: 'Power.Active.Import',
        value: '150000',
        unit: 'W',
        flag: null,
      },
      { transaction_id: transactionId, measurand: 'SoC', value: '47', unit: 'Percent', flag: null },
      {
        transaction_id: transactionId,
        measurand: 'Energy.Active.Import.Register',
        value: '20000',
        unit: 'Wh',
        flag: null,
      },
    ]);
    const event = await h.waitForEvent<MeterValuesV1>(
      'meter-values.received',
      (p) => p.transactionId === transactionId && p.samples.length === 3,
    );
    expect(event.payload.samples).toContainEqual({
      timestamp: t1,
      measurand: 'SoC',
      value: 47,
      unit: 'Percent',
      location: 'EV',
    });
    expect(event.payload.flagged).toBe(false);
    await client.call('StopTransaction', { transactionId, meterStop: 20_500, timestamp: at() });
  });

  it('gives repeated meter values no second effect', async () => {
    const { transactionId } = await start({
      connectorId: 5,
      idTag: 'BUS-101',
      meterStart: 0,
      timestamp: at(),
    });
    const req = { connectorId: 5, transactionId, meterValue: [energy(at(), '1000')] };
    await client.call('MeterValues', req);
    await client.call('MeterValues', req);
    expect(
      await h.query(`SELECT 1 FROM ocpp_meter_sample WHERE transaction_id = $1`, [transactionId]),
    ).toHaveLength(1);
    await h.waitForEvent<MeterValuesV1>('meter-values.received', (p) => p.transactionId === transactionId);
    await new Promise((r) => setTimeout(r, 200));
    expect(
      h
        .eventsOfType('meter-values.received')
        .filter((e) => (e.payload as MeterValuesV1).transactionId === transactionId),
    ).toHaveLength(1);
    await client.call('StopTransaction', { transactionId, meterStop: 1000, timestamp: at() });
  });

  it('keeps implausible values and flags them (negative, decreasing, below meterStart, unknown transaction)', async () => {
    const { transactionId } = await start({
      connectorId: 6,
      idTag: 'BUS-101',
      meterStart: 5000,
      timestamp: at(),
    });
    await client.call('MeterValues', {
      connectorId: 6,
      transactionId,
      meterValue: [energy(at(), '4000'), energy(at(), '8000'), energy(at(), '7000'), energy(at(), '-5')],
    });
    await client.call('MeterValues', {
      connectorId: 6,
      transactionId: 55_555_555,
      meterValue: [energy(at(), '10')],
    });
    const rows = await h.query<{ value: string; flag: string | null; transaction_id: number | null }>(
      `SELECT value::text, flag, transaction_id FROM ocpp_meter_sample WHERE charge_point_id = 'CP-TX' AND connector_id = 6 ORDER BY sampled_at`,
    );
    expect(rows).toEqual([
      { value: '4000', flag: 'decreasing', transaction_id: transactionId },
      { value: '8000', flag: null, transaction_id: transactionId },
      { value: '7000', flag: 'decreasing', transaction_id: transactionId },
      { value: '-5', flag: 'negative', transaction_id: transactionId },
      { value: '10', flag: 'unknown-transaction', transaction_id: null },
    ]);
    const event = await h.waitForEvent<MeterValuesV1>(
      'meter-values.received',
      (p) => p.transactionId === transactionId,
    );
    expect(event.payload.flagged).toBe(true);
  });

  it('stores the transactionData of a stop as samples of that transaction', async () => {
    const { transactionId } = await start({
      connectorId: 7,
      idTag: 'BUS-101',
      meterStart: 0,
      timestamp: at(),
    });
    await client.call('StopTransaction', {
      transactionId,
      meterStop: 3000,
      timestamp: at(),
      transactionData: [energy(at(), '3000', { context: 'Transaction.End' })],
    });
    expect(
      await h.query(`SELECT context FROM ocpp_meter_sample WHERE transaction_id = $1`, [transactionId]),
    ).toEqual([{ context: 'Transaction.End' }]);
  });
});
