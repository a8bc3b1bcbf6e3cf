import type { RPCClient } from 'ocpp-rpc';
import { Client, type QueryConfig } from 'pg';
import type { EntityManager } from 'typeorm';
import type { IdTagInfo, MeterValue, SampledValue } from '@voltdepot/shared-ocpp';
import { GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';
import { MeterValuesWriter } from './meter-values.writer';
import { StartTransactionWriter, type StartItem } from './start-transaction.writer';
import { StopTransactionWriter, type StopItem } from './stop-transaction.writer';

/**
 * Transaction messages are written in batches (group commit). A batch must come to exactly what
 * recording its calls one after another would: these tests put calls that interact (same tag, same
 * start retried, a stop and its retry, duplicate samples) into one batch.
 */
const h = new GatewayTestHarness();
const starts = new StartTransactionWriter();
const stops = new StopTransactionWriter();
const meterValues = new MeterValuesWriter();
let clock = Date.parse('2026-06-01T08:00:00Z');
const at = () => new Date((clock += 1_000)).toISOString();
const accepted: IdTagInfo = { status: 'Accepted', parentIdTag: 'FLEET' };

beforeAll(async () => {
  await h.start();
});
afterAll(() => h.stop());

const inOneTransaction = <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> =>
  h.db.dataSource.transaction(work);

const start = (chargePointId: string, idTag: string, timestamp: string, connectorId = 1): StartItem => ({
  chargePointId,
  req: { connectorId, idTag, meterStart: 100, timestamp },
  correlationId: `${chargePointId}:${timestamp}`,
  tagInfo: accepted,
});

describe('a batch of starts', () => {
  it('is idempotent within the batch and gives a second transaction of the same tag ConcurrentTx', async () => {
    const t = at();
    const items = [start('B-1', 'TAG-1', t), start('B-2', 'TAG-1', at()), start('B-1', 'TAG-1', t)];
    const outcomes = await inOneTransaction((m) => starts.write(m, items));
    expect(outcomes.map((o) => [o.created, o.idTagInfo.status])).toEqual([
      [true, 'Accepted'],
      [true, 'ConcurrentTx'],
      [false, 'Accepted'],
    ]);
    expect(outcomes[0].idTagInfo).toEqual(accepted); // the full decision, parent included
    expect(outcomes[2].transactionId).toBe(outcomes[0].transactionId);
    expect(outcomes[1].transactionId).not.toBe(outcomes[0].transactionId);
    const events = await h.query(
      `SELECT payload->>'transactionId' AS id, payload->>'idTagStatus' AS status FROM outbox_event
        WHERE type = 'transaction.started' AND key IN ('B-1', 'B-2') ORDER BY id`,
    );
    expect(events).toEqual([
      { id: String(outcomes[0].transactionId), status: 'Accepted' },
      { id: String(outcomes[1].transactionId), status: 'ConcurrentTx' },
    ]);
    // A retry in a later batch still finds the first attempt.
    const [again] = await inOneTransaction((m) => starts.write(m, [start('B-1', 'TAG-1', t)]));
    expect(again).toMatchObject({ transactionId: outcomes[0].transactionId, created: false });
  });

  it('writes transactions and events in one statement, outside any transaction, events in call order', async () => {
    // As the start writer runs it: no BEGIN/COMMIT around the batch. Call order differs from key order
    // (K-2 sorts after K-1), so the events' order comes from the calls, not from the insert.
    const t = at();
    const items = [start('K-2', 'TAG-K2', t), start('K-1', 'TAG-K1', t, 2)];
    const outcomes = await starts.write(h.db.dataSource.manager, items);
    expect(outcomes.map((o) => o.created)).toEqual([true, true]);
    const events: { key: string; occurred_at: Date; correlation_id: string; payload: unknown }[] =
      await h.query(
        `SELECT key, occurred_at, correlation_id, payload FROM outbox_event
        WHERE type = 'transaction.started' AND key IN ('K-1', 'K-2') ORDER BY id`,
      );
    const expected = (chargePointId: string, connectorId: number, n: number) => ({
      key: chargePointId,
      occurred_at: new Date(t),
      correlation_id: `${chargePointId}:${t}`,
      payload: {
        chargePointId,
        connectorId,
        transactionId: outcomes[n].transactionId,
        idTag: `TAG-${chargePointId.replace('-', '')}`,
        idTagStatus: 'Accepted',
        meterStartWh: 100,
        timestamp: t,
      },
    });
    expect(events).toEqual([expected('K-2', 1, 0), expected('K-1', 2, 1)]);
    const rows = await h.query(
      `SELECT charge_point_id, connector_id, id_tag FROM ocpp_transaction WHERE transaction_id = ANY($1::int[]) ORDER BY charge_point_id`,
      [outcomes.map((o) => o.transactionId)],
    );
    expect(rows).toEqual([
      { charge_point_id: 'K-1', connector_id: 2, id_tag: 'TAG-K1' },
      { charge_point_id: 'K-2', connector_id: 1, id_tag: 'TAG-K2' },
    ]);
  });
});

describe('a start whose text PostgreSQL changes on the way in', () => {
  // The router refuses such calls; this is the layer below: the writer matches inserted rows to
  // calls on the stored values, so such a start is announced or fails, never recorded in silence.
  it('is not acknowledged without its event: the batch fails and nothing of it is kept', async () => {
    const t = at();
    await expect(inOneTransaction((m) => starts.write(m, [start('S-1', 'BUS\ud800', t)]))).rejects.toThrow();
    expect(await h.query(`SELECT 1 FROM ocpp_transaction WHERE charge_point_id = 'S-1'`)).toHaveLength(0);
  });
});

describe('timestamps finer than a millisecond', () => {
  // PostgreSQL rounds 7 fractional digits to microseconds (…00.1239996 -> …00.124) where JavaScript
  // truncates to milliseconds (…00.123): the row and its event must still be matched.
  const fine = '2026-06-02T08:00:00.1239996Z';

  it('a start is created once and announced, and its retry finds it', async () => {
    const [first] = await inOneTransaction((m) => starts.write(m, [start('F-1', 'TAG-F1', fine)]));
    expect(first).toMatchObject({ created: true, idTagInfo: accepted });
    const [again] = await inOneTransaction((m) => starts.write(m, [start('F-1', 'TAG-F1', fine)]));
    expect(again).toMatchObject({ created: false, transactionId: first.transactionId });
    expect(
      await h.query(
        `SELECT 1 FROM outbox_event WHERE type = 'transaction.started' AND payload->>'transactionId' = $1`,
        [String(first.transactionId)],
      ),
    ).toHaveLength(1);
  });

  it('an unknown stop is quarantined and announced once', async () => {
    const stop: StopItem = {
      chargePointId: 'F-2',
      req: { transactionId: 888_888, meterStop: 10, timestamp: fine },
      correlationId: 'F-2:stop',
    };
    const [first] = await inOneTransaction((m) => stops.write(m, [stop]));
    const [again] = await inOneTransaction((m) => stops.write(m, [stop]));
    expect([first.outcome, again.outcome]).toEqual(['quarantined', 'quarantined-again']);
    expect(
      await h.query(`SELECT 1 FROM outbox_event WHERE type = 'transaction.stopped' AND key = 'F-2'`),
    ).toHaveLength(1);
  });
});

describe('the open-transaction check of a later batch', () => {
  const stopOf = (chargePointId: string, transactionId: number): StopItem => ({
    chargePointId,
    req: { transactionId, meterStop: 900, timestamp: at(), reason: 'Local' },
    correlationId: `${chargePointId}:stop:${transactionId}`,
  });

  it('sees an open transaction of the tag, and none once every one of them has stopped', async () => {
    // Many stopped transactions of the tag first: their entries in the open-tag index are dead, not gone.
    const earlier = await inOneTransaction((m) =>
      starts.write(
        m,
        Array.from({ length: 30 }, (_, n) => start(`OT-${n}`, 'TAG-OT', at())),
      ),
    );
    await inOneTransaction((m) =>
      stops.write(
        m,
        earlier.map((o, n) => stopOf(`OT-${n}`, o.transactionId)),
      ),
    );
    const [fresh] = await inOneTransaction((m) => starts.write(m, [start('OT-A', 'TAG-OT', at())]));
    expect(fresh.idTagInfo.status).toBe('Accepted');
    // While it is open, the same card elsewhere (and a card with no transaction at all) in a later batch.
    const [busy, other] = await inOneTransaction((m) =>
      starts.write(m, [start('OT-B', 'TAG-OT', at()), start('OT-C', 'TAG-OT-2', at())]),
    );
    expect([busy.idTagInfo.status, other.idTagInfo.status]).toEqual(['ConcurrentTx', 'Accepted']);
    await inOneTransaction((m) =>
      stops.write(m, [stopOf('OT-A', fresh.transactionId), stopOf('OT-B', busy.transactionId)]),
    );
    const [after] = await inOneTransaction((m) => starts.write(m, [start('OT-D', 'TAG-OT', at())]));
    expect(after.idTagInfo.status).toBe('Accepted');
  });
});

describe('a batch of stops', () => {
  it('stops once, records a different repeat (once), ignores a retry, quarantines unknown and foreign transactions (once)', async () => {
    const [mine, foreign] = await inOneTransaction((m) =>
      starts.write(m, [start('S-1', 'TAG-S1', at()), start('S-2', 'TAG-S2', at())]),
    );
    const stoppedAt = at();
    const stop = (
      chargePointId: string,
      transactionId: number,
      meterStop: number,
      timestamp = stoppedAt,
    ): StopItem => ({
      chargePointId,
      req: { transactionId, meterStop, timestamp, reason: 'EVDisconnected' },
      correlationId: `${chargePointId}:stop:${transactionId}:${meterStop}`,
    });
    const repeatedAt = at();
    const items = [
      stop('S-1', mine.transactionId, 5_000),
      stop('S-1', mine.transactionId, 9_999, repeatedAt), // a different, later stop of the same transaction
      { ...stop('S-1', mine.transactionId, 5_000), correlationId: 'S-1:retry' }, // the first, sent again
      stop('S-1', 777_777, 10),
      stop('S-1', 777_777, 10), // the same unknown stop retried
      stop('S-1', foreign.transactionId, 20), // another pile's transaction
      stop('S-1', mine.transactionId, 9_999, repeatedAt), // the repeat retried
    ];
    const outcomes = await inOneTransaction((m) => stops.write(m, items));
    expect(outcomes.map((o) => o.outcome)).toEqual([
      'stopped',
      'repeated',
      'already-stopped',
      'quarantined',
      'quarantined-again',
      'quarantined',
      'already-stopped',
    ]);
    expect(outcomes[1].disagrees).toBe(true);
    expect(
      await h.query(
        `SELECT payload FROM outbox_event WHERE type = 'transaction.stop-repeated' AND key = 'S-1'`,
      ),
    ).toEqual([
      {
        payload: {
          chargePointId: 'S-1',
          connectorId: 1,
          transactionId: mine.transactionId,
          meterStopWh: 9_999,
          timestamp: repeatedAt,
          reason: 'EVDisconnected',
          firstMeterStopWh: 5_000,
          firstTimestamp: stoppedAt,
          firstReason: 'EVDisconnected',
          disagrees: true,
        },
      },
    ]);
    expect(
      await h.query(
        `SELECT meter_stop_wh::float8 AS meter, reason, disagrees FROM ocpp_stop_repeat WHERE transaction_id = $1`,
        [mine.transactionId],
      ),
    ).toEqual([{ meter: 9_999, reason: 'EVDisconnected', disagrees: true }]);
    const rows = await h.query(
      `SELECT transaction_id, meter_stop_wh::float8 AS meter_stop_wh, stop_kind, stopped_at IS NOT NULL AS stopped FROM ocpp_transaction
        WHERE transaction_id = ANY($1::int[]) ORDER BY transaction_id`,
      [[mine.transactionId, foreign.transactionId]],
    );
    expect(rows).toEqual([
      { transaction_id: mine.transactionId, meter_stop_wh: 5_000, stop_kind: 'normal', stopped: true },
      { transaction_id: foreign.transactionId, meter_stop_wh: null, stop_kind: null, stopped: false },
    ]);
    const events = await h.query<{ id: string; quarantined: string }>(
      `SELECT payload->>'transactionId' AS id, payload->>'quarantined' AS quarantined FROM outbox_event
        WHERE type = 'transaction.stopped' AND key = 'S-1' ORDER BY id`,
    );
    expect(events).toEqual(
      [
        { id: String(mine.transactionId), quarantined: 'false' },
        { id: String(foreign.transactionId), quarantined: 'true' },
        { id: '777777', quarantined: 'true' },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  });
});

describe('stops carrying transactionData, without a transaction around the batch (as the stop writer runs)', () => {
  it('write the samples and their event before the stop and its event; a concurrent copy adds nothing', async () => {
    const [tx] = await inOneTransaction((m) => starts.write(m, [start('D-1', 'TAG-D1', at())]));
    const stoppedAt = at();
    const item: StopItem = {
      chargePointId: 'D-1',
      req: {
        transactionId: tx.transactionId,
        meterStop: 3_100,
        timestamp: stoppedAt,
        reason: 'Local',
        transactionData: [
          {
            timestamp: stoppedAt,
            sampledValue: [
              {
                value: '3100',
                measurand: 'Energy.Active.Import.Register',
                unit: 'Wh',
                context: 'Transaction.End',
              },
            ],
          },
        ],
      },
      correlationId: 'D-1:stop',
    };
    // The same stop twice at once (a retry under a new message id, in the other stop batch).
    const outcomes = await Promise.all([
      stops.write(h.db.dataSource.manager, [item]),
      stops.write(h.db.dataSource.manager, [{ ...item, correlationId: 'D-1:stop:again' }]),
    ]);
    expect(outcomes.map(([o]) => o.outcome).sort()).toEqual(['already-stopped', 'stopped']);
    expect(
      await h.query(
        `SELECT context, value::float8 AS value FROM ocpp_meter_sample WHERE transaction_id = $1`,
        [tx.transactionId],
      ),
    ).toEqual([{ context: 'Transaction.End', value: 3_100 }]);
    const events = await h.query<{ type: string; payload: Record<string, unknown> }>(
      `SELECT type, payload FROM outbox_event WHERE key = 'D-1' ORDER BY id`,
    );
    expect(events.map((e) => e.type)).toEqual([
      'transaction.started',
      'meter-values.received',
      'transaction.stopped',
    ]);
    expect(events[2].payload).toEqual({
      chargePointId: 'D-1',
      connectorId: 1,
      transactionId: tx.transactionId,
      idTag: 'TAG-D1', // the stop names none: the start's
      meterStartWh: 100,
      meterStopWh: 3_100,
      energyWh: 3_000,
      timestamp: stoppedAt,
      reason: 'Local',
      stopKind: 'normal',
      quarantined: false,
    });
  });
});

describe('a stop of a transaction id beyond 32 bits', () => {
  it('is accepted and quarantined (with the id as claimed), not announced, and its retry has no effect', async () => {
    const claimed = 2 ** 40 + 7;
    const item: StopItem = {
      chargePointId: 'W-1',
      req: { transactionId: claimed, meterStop: 123_456, timestamp: at(), reason: 'PowerLoss' },
      correlationId: 'W-1:stop',
    };
    const [first] = await inOneTransaction((m) => stops.write(m, [item]));
    const [again] = await inOneTransaction((m) => stops.write(m, [item]));
    expect([first.outcome, again.outcome]).toEqual(['quarantined', 'quarantined-again']);
    expect(
      await h.query(
        `SELECT transaction_id::text AS id, meter_stop_wh::float8 AS meter FROM ocpp_stop_quarantine WHERE charge_point_id = 'W-1'`,
      ),
    ).toEqual([{ id: String(claimed), meter: 123_456 }]);
    expect(await h.query(`SELECT 1 FROM outbox_event WHERE key = 'W-1'`)).toHaveLength(0);
  });

  it('gets through the router: a StopTransaction with such an id is answered, not refused', async () => {
    const client = await h.connect('W-2', await h.addPile('W-2'));
    const conf = await client.call('StopTransaction', {
      transactionId: 2 ** 45,
      meterStop: 10,
      timestamp: at(),
    });
    expect(conf).toEqual(expect.any(Object));
    expect(
      await h.query(
        `SELECT transaction_id::text AS id FROM ocpp_stop_quarantine WHERE charge_point_id = 'W-2'`,
      ),
    ).toEqual([{ id: String(2 ** 45) }]);
  });

  it('MeterValues naming such an id are stored, flagged as of an unknown transaction, not refused', async () => {
    const client = await h.connect('W-3', await h.addPile('W-3'));
    const timestamp = at();
    await client.call('MeterValues', {
      connectorId: 1,
      transactionId: 2 ** 45,
      meterValue: [
        { timestamp, sampledValue: [{ value: '10', measurand: 'Energy.Active.Import.Register' }] },
      ],
    });
    expect(
      await h.query(`SELECT transaction_id, flag FROM ocpp_meter_sample WHERE charge_point_id = 'W-3'`),
    ).toEqual([{ transaction_id: null, flag: 'unknown-transaction' }]);
  });
});

describe('a batch of meter values', () => {
  it('attributes, flags and de-duplicates as one call after another would', async () => {
    const [tx] = await inOneTransaction((m) => starts.write(m, [start('M-1', 'TAG-M', at(), 2)]));
    const t1 = at();
    const t2 = at();
    const energy = (timestamp: string, value: string) => ({
      timestamp,
      sampledValue: [{ value, measurand: 'Energy.Active.Import.Register' as const, unit: 'Wh' as const }],
    });
    const call = (meterValue: ReturnType<typeof energy>[], transactionId?: number) => ({
      chargePointId: 'M-1',
      req: { connectorId: 2, ...(transactionId ? { transactionId } : {}), meterValue },
      correlationId: `M-1:${Math.random()}`,
    });
    const outcomes = await inOneTransaction((m) =>
      meterValues.write(m, [
        call([energy(t1, '500'), energy(t1, '500')], tx.transactionId), // the same sample twice
        call([energy(t2, '400')]), // no transactionId: the connector's open transaction; lower: flagged
        call([energy(t1, '500')], tx.transactionId), // a retry of the first sample
        call([energy(at(), '1')], 99_999_999), // a transaction that does not exist
      ]),
    );
    expect(outcomes).toEqual([
      { inserted: 1, duplicates: 1, transactionId: tx.transactionId },
      { inserted: 1, duplicates: 0, transactionId: tx.transactionId, flags: ['decreasing'] },
      { inserted: 0, duplicates: 1, transactionId: tx.transactionId },
      { inserted: 1, duplicates: 0, transactionId: null, flags: ['unknown-transaction'] },
    ]);
    const rows = await h.query(
      `SELECT value::text, flag, transaction_id FROM ocpp_meter_sample WHERE charge_point_id = 'M-1' ORDER BY sampled_at`,
    );
    expect(rows).toEqual([
      { value: '500', flag: null, transaction_id: tx.transactionId },
      { value: '400', flag: 'decreasing', transaction_id: tx.transactionId },
      { value: '1', flag: 'unknown-transaction', transaction_id: null },
    ]);
    expect(
      await h.query(`SELECT 1 FROM outbox_event WHERE type = 'meter-values.received' AND key = 'M-1'`),
    ).toHaveLength(3);
  });

  it('announces, per call, only its new samples, in call order, without a transaction around it', async () => {
    // As the meter writer runs it: no transaction, the samples and events written by one statement.
    const [tx] = await inOneTransaction((m) => starts.write(m, [start('E-1', 'TAG-E', at(), 1)]));
    const [t1, t2, t3] = [at(), at(), at()];
    const sample = (
      timestamp: string,
      value: string,
      measurand: SampledValue['measurand'] = 'Energy.Active.Import.Register',
    ): MeterValue => ({
      timestamp,
      sampledValue: [{ value, measurand, unit: measurand === 'SoC' ? 'Percent' : 'Wh', location: 'EV' }],
    });
    const call = (correlationId: string, meterValue: MeterValue[]) => ({
      chargePointId: 'E-1',
      req: { connectorId: 1, transactionId: tx.transactionId, meterValue },
      correlationId,
    });
    await meterValues.write(h.db.dataSource.manager, [call('first', [sample(t2, '300')])]);
    const outcomes = await meterValues.write(h.db.dataSource.manager, [
      // t3 before t1 in the call; t2 was stored by the batch before; 50 Wh is below meterStart.
      call('second', [sample(t3, '900'), sample(t1, '200'), sample(t2, '300'), sample(t1, '50', 'SoC')]),
      call('retry', [sample(t2, '300')]),
      call('third', [sample(t1, '200'), sample(at(), '50')]),
    ]);
    expect(outcomes).toEqual([
      { inserted: 3, duplicates: 1, transactionId: tx.transactionId },
      { inserted: 0, duplicates: 1, transactionId: tx.transactionId },
      { inserted: 1, duplicates: 1, transactionId: tx.transactionId, flags: ['decreasing'] },
    ]);
    const events = await h.query<{ correlation_id: string; occurred_at: Date; payload: unknown }>(
      `SELECT correlation_id, occurred_at, payload FROM outbox_event
        WHERE type = 'meter-values.received' AND key = 'E-1' ORDER BY id`,
    );
    expect(events.map((e) => [e.correlation_id, new Date(e.occurred_at).toISOString()])).toEqual([
      ['first', t2],
      ['second', t3],
      ['third', expect.any(String)],
    ]);
    const head = { chargePointId: 'E-1', connectorId: 1, transactionId: tx.transactionId };
    expect(events[1].payload).toEqual({
      ...head,
      samples: [
        { timestamp: t3, measurand: 'Energy.Active.Import.Register', value: 900, unit: 'Wh', location: 'EV' },
        { timestamp: t1, measurand: 'Energy.Active.Import.Register', value: 200, unit: 'Wh', location: 'EV' },
        { timestamp: t1, measurand: 'SoC', value: 50, unit: 'Percent', location: 'EV' },
      ],
      flagged: false,
    });
    expect(events[2].payload).toMatchObject({
      ...head,
      samples: [{ measurand: 'Energy.Active.Import.Register', value: 50, flag: 'decreasing' }],
      flagged: true,
    });
  });
});

describe('an energy register that jumps', () => {
  it('is flagged and does not become the baseline: later correct readings are accepted', async () => {
    // At most 600 kW: 10 kWh in a minute is plausible, 50 MWh in a minute is not.
    const bounded = new MeterValuesWriter({ maxPlausiblePowerW: 600_000 });
    const t0 = at();
    const [tx] = await inOneTransaction((m) => starts.write(m, [start('J-1', 'TAG-J', t0)]));
    const minute = (n: number) => new Date(Date.parse(t0) + n * 60_000).toISOString();
    const energy = (timestamp: string, value: string) => ({
      chargePointId: 'J-1',
      req: {
        connectorId: 1,
        transactionId: tx.transactionId,
        meterValue: [
          {
            timestamp,
            sampledValue: [
              { value, measurand: 'Energy.Active.Import.Register' as const, unit: 'Wh' as const },
            ],
          },
        ],
      },
      correlationId: `J-1:${timestamp}`,
    });
    // meterStart is 100 Wh.
    await inOneTransaction((m) => bounded.write(m, [energy(minute(1), '10100')]));
    await inOneTransaction((m) =>
      bounded.write(m, [energy(minute(2), '50000000100'), energy(minute(3), '30100')]),
    );
    await inOneTransaction((m) => bounded.write(m, [energy(minute(4), '40100')]));
    const rows = await h.query(
      `SELECT value::text, flag FROM ocpp_meter_sample WHERE charge_point_id = 'J-1' ORDER BY sampled_at`,
    );
    expect(rows).toEqual([
      { value: '10100', flag: null },
      { value: '50000000100', flag: 'jump' },
      { value: '30100', flag: null },
      { value: '40100', flag: null },
    ]);
    // Without a bound the same wild reading would have made the later ones "decreasing".
    const flagged = await h.query(
      `SELECT payload FROM outbox_event WHERE type = 'meter-values.received' AND key = 'J-1' ORDER BY id`,
    );
    expect(flagged.map((r) => (r['payload'] as { flagged: boolean }).flagged)).toEqual([
      false,
      true,
      false,
      false,
    ]);
  });
});

describe('energy register readings of several transactions in one batch', () => {
  it('are each checked against the stored history of their own transaction', async () => {
    const t0 = at();
    const [a, b] = await inOneTransaction((m) =>
      starts.write(m, [start('H-A', 'TAG-HA', t0), start('H-B', 'TAG-HB', t0)]),
    );
    const minute = (n: number) => new Date(Date.parse(t0) + n * 60_000).toISOString();
    const reading = (
      chargePointId: string,
      transactionId: number | undefined,
      timestamp: string,
      value: string,
    ) => ({
      chargePointId,
      req: {
        connectorId: 1,
        ...(transactionId === undefined ? {} : { transactionId }),
        meterValue: [
          {
            timestamp,
            sampledValue: [
              { value, measurand: 'Energy.Active.Import.Register' as const, unit: 'Wh' as const },
            ],
          },
        ],
      },
      correlationId: `${chargePointId}:${timestamp}`,
    });
    // Stored history: A is at 9,000 Wh, B at 200 Wh (both started at 100).
    await meterValues.write(h.db.dataSource.manager, [
      reading('H-A', a.transactionId, minute(1), '9000'),
      reading('H-B', b.transactionId, minute(1), '200'),
    ]);
    // One batch, as the meter writer runs it: B rises (fine), A falls below its history (flagged), and a
    // pile with no transaction sends a reading nobody checks. Swapped histories would flag B, not A.
    // Two statements: one read (transactions and the readings' history together), one write.
    // Counted at the driver (the gateway's statements are prepared, so no EntityManager sees them); only
    // those of this batch, which alone name pile H-C (the harness's gateway runs its own in between).
    const statements: string[] = [];
    const query = jest.spyOn(Client.prototype, 'query');
    try {
      await meterValues.write(h.db.dataSource.manager, [
        reading('H-B', b.transactionId, minute(2), '300'),
        reading('H-A', a.transactionId, minute(2), '8000'),
        reading('H-C', undefined, minute(2), '5'),
      ]);
      for (const [config, values] of query.mock.calls as unknown as [string | QueryConfig, unknown[]?][]) {
        const text = typeof config === 'string' ? config : config.text;
        const params = typeof config === 'string' ? values : config.values;
        if (JSON.stringify(params ?? []).includes('H-C')) statements.push(text);
      }
    } finally {
      query.mockRestore();
    }
    expect(statements).toHaveLength(2);
    const rows = await h.query(
      `SELECT charge_point_id, value::text, flag, transaction_id FROM ocpp_meter_sample
        WHERE charge_point_id IN ('H-A', 'H-B', 'H-C') ORDER BY charge_point_id, sampled_at`,
    );
    expect(rows).toEqual([
      { charge_point_id: 'H-A', value: '9000', flag: null, transaction_id: a.transactionId },
      { charge_point_id: 'H-A', value: '8000', flag: 'decreasing', transaction_id: a.transactionId },
      { charge_point_id: 'H-B', value: '200', flag: null, transaction_id: b.transactionId },
      { charge_point_id: 'H-B', value: '300', flag: null, transaction_id: b.transactionId },
      { charge_point_id: 'H-C', value: '5', flag: null, transaction_id: null },
    ]);
  });
});

describe('the meter batch statements', () => {
  it('are planned once per connection: after the first runs PostgreSQL keeps a generic plan', async () => {
    const pile = 'PLAN-1';
    const { transactionId } = (
      await inOneTransaction((m) => starts.write(m, [start(pile, 'PLAN-TAG', at())]))
    )[0];
    const meter = (second: number, batch: number) =>
      Array.from({ length: batch }, (_, k) => ({
        chargePointId: pile,
        req: {
          connectorId: 1,
          transactionId,
          meterValue: [
            {
              timestamp: new Date(Date.UTC(2026, 10, 24, 6, 0, second, k)).toISOString(),
              sampledValue: [
                {
                  value: String(1000 + second * 10 + k),
                  measurand: 'Energy.Active.Import.Register' as const,
                },
              ],
            },
          ],
        },
        correlationId: `${pile}:${second}:${k}`,
      }));
    // Batches of varying size on one connection (one transaction), as the meter writer sends them. The
    // pool may have run them on that connection before: counted from here.
    const runs = (manager: EntityManager) =>
      manager.query(
        `SELECT name, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
          WHERE name IN ('ocpp.resolve-transactions', 'ocpp.meter-samples-and-events') ORDER BY name`,
      ) as Promise<{ name: string; generic: number; custom: number }[]>;
    const [before, after] = await inOneTransaction(async (manager) => {
      const first = await runs(manager);
      for (let second = 1; second <= 12; second++)
        await meterValues.write(manager, meter(second, 1 + (second % 4)));
      return [first, await runs(manager)];
    });
    // PostgreSQL plans a prepared statement for its values five times, then keeps the generic plan unless
    // the custom ones look cheaper (as when it sees an array's length: then it plans on every run).
    const custom = (name: string, list: typeof before) => list.find((p) => p.name === name)?.custom ?? 0;
    const total = (name: string, list: typeof before) =>
      list.filter((p) => p.name === name).reduce((sum, p) => sum + p.generic + p.custom, 0);
    for (const name of ['ocpp.meter-samples-and-events', 'ocpp.resolve-transactions']) {
      expect(total(name, after) - total(name, before)).toBe(12);
      expect(custom(name, after)).toBe(5);
    }
  });
});

describe('through the gateway', () => {
  // Each pile costs two production-strength argon2 hashes (registration, first connection).
  const PILES = 16;

  it('groups the calls of many piles arriving together, and answers each', async () => {
    const clients: RPCClient[] = [];
    for (let i = 0; i < PILES; i++) clients.push(await h.connect(`G-${i}`, await h.addPile(`G-${i}`)));
    await h.addIdTag('TAG-G', 'Accepted');
    const before = { batches: h.gateway.meterValues.batches, calls: h.gateway.meterValues.items };
    const timestamp = at();
    await Promise.all(
      clients.map((client) =>
        client.call('MeterValues', {
          connectorId: 1,
          meterValue: [{ timestamp, sampledValue: [{ value: '42' }] }],
        }),
      ),
    );
    const calls = h.gateway.meterValues.items - before.calls;
    const batches = h.gateway.meterValues.batches - before.batches;
    expect(calls).toBe(PILES);
    expect(batches).toBeLessThan(PILES);
    expect(
      await h.query(`SELECT 1 FROM ocpp_meter_sample WHERE charge_point_id LIKE 'G-%' AND sampled_at = $1`, [
        timestamp,
      ]),
    ).toHaveLength(PILES);

    // Every driver present the same card at once: one transaction is Accepted, the others ConcurrentTx.
    const starts = (await Promise.all(
      clients.map((client) =>
        client.call('StartTransaction', { connectorId: 1, idTag: 'TAG-G', meterStart: 0, timestamp: at() }),
      ),
    )) as { transactionId: number; idTagInfo: { status: string } }[];
    expect(starts.filter((s) => s.idTagInfo.status === 'Accepted')).toHaveLength(1);
    expect(starts.filter((s) => s.idTagInfo.status === 'ConcurrentTx')).toHaveLength(PILES - 1);
    expect(new Set(starts.map((s) => s.transactionId)).size).toBe(PILES);
  });
});

describe('decimal registers and samples around the stop (what real piles send)', () => {
  it('keeps decimals and milliseconds; neither rounding at the stop nor a late sample above meterStop is flagged', async () => {
    const [tx] = await inOneTransaction((m) => starts.write(m, [start('DEC-1', 'TAG-DEC', at())]));
    const energy = (
      timestamp: string,
      value: string,
      context: SampledValue['context'] = 'Sample.Periodic',
    ): MeterValue => ({
      timestamp,
      sampledValue: [
        { value, measurand: 'Energy.Active.Import.Register' as const, unit: 'Wh' as const, context },
      ],
    });
    const call = (correlationId: string, meterValue: MeterValue[]) => ({
      chargePointId: 'DEC-1',
      req: { connectorId: 1, transactionId: tx.transactionId, meterValue },
      correlationId,
    });
    await meterValues.write(h.db.dataSource.manager, [call('p1', [energy(at(), '192.49')])]);
    await meterValues.write(h.db.dataSource.manager, [call('p2', [energy(at(), '195.26')])]);
    // meterStop in whole Wh, 0.26 Wh below the last sample, with a Transaction.End sample of it; then a
    // periodic sample stamped 80 ms after the stop, above meterStop (the pile's timer fired after the stop).
    const stoppedAt = at();
    const lateAt = new Date(Date.parse(stoppedAt) + 80).toISOString();
    const [stopped] = await stops.write(h.db.dataSource.manager, [
      {
        chargePointId: 'DEC-1',
        req: {
          transactionId: tx.transactionId,
          meterStop: 195,
          timestamp: stoppedAt,
          reason: 'EVDisconnected',
          transactionData: [energy(stoppedAt, '195', 'Transaction.End')],
        },
        correlationId: 'DEC-1:stop',
      },
    ]);
    expect(stopped.outcome).toBe('stopped');
    const [late] = await meterValues.write(h.db.dataSource.manager, [
      call('late', [energy(lateAt, '195.61')]),
    ]);
    expect(late).toEqual({ inserted: 1, duplicates: 0, transactionId: tx.transactionId });
    expect(
      await h.query(
        `SELECT value::text, flag, to_char(sampled_at AT TIME ZONE 'UTC', 'HH24:MI:SS.MS') AS at
           FROM ocpp_meter_sample WHERE transaction_id = $1 ORDER BY sampled_at`,
        [tx.transactionId],
      ),
    ).toEqual([
      { value: '192.49', flag: null, at: expect.any(String) },
      { value: '195.26', flag: null, at: expect.any(String) },
      { value: '195', flag: null, at: stoppedAt.slice(11, 23) },
      { value: '195.61', flag: null, at: lateAt.slice(11, 23) },
    ]);
    // A reading more than 1 Wh below is a register that went backwards.
    const [backwards] = await meterValues.write(h.db.dataSource.manager, [
      call('back', [energy(at(), '194.2')]),
    ]);
    expect(backwards.flags).toEqual(['decreasing']);
  });
});
