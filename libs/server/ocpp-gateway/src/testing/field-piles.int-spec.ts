/**
 * A realistic run, gateway side (issue #23): simulated piles behave as real piles in the field do —
 * decimal energy registers, a periodic sample stamped 80 ms after each stop, a pile that stops a session
 * twice, piles that lose power mid-session (one replays its stop after booting again), a gun that forgets
 * its session, a pile that vanishes, a session parked at 0 kW, guns going Charging -> Available without
 * Finishing — against the real gateway (two replicas sweeping) and bus. Every session ends (stopped, or
 * closed by the rule expected), no card is left in ConcurrentTx, no sample is flagged, and the bus carries
 * exactly the expected events, each of its declared type. Settlement of the same behaviours is billing's
 * test; the two meet in the events checked here.
 */
import { SimulatedPile, type SessionRecord } from '@voltdepot/server-ocpp-simulator';
import { eventually } from '@voltdepot/server-testing';
import {
  ocppPayloadSchemaOf,
  type EventEnvelope,
  type MeterValuesV1,
  type TransactionAbandonedV1,
  type TransactionStoppedV1,
  type TransactionStopRepeatedV1,
} from '@voltdepot/shared-events';
import { GatewayTestHarness } from './fixtures/gateway-test-harness';

const GRACE_S = 2;
const h = new GatewayTestHarness();
const piles: SimulatedPile[] = [];
const TAGS = Array.from({ length: 10 }, (_, n) => `FIELD-${n + 1}`);

beforeAll(async () => {
  const rules = { OCPP_SESSION_IDLE_GRACE_S: GRACE_S, sessionSweepMs: 150 };
  await h.start(rules);
  await h.startReplica({ ...rules, sessionSweepMs: 110 });
  for (const tag of TAGS) await h.addIdTag(tag, 'Accepted');
});
afterAll(async () => {
  for (const pile of piles) await pile.stop();
  await h.stop();
});

async function fieldPile(id: string, options: { skipFinishing?: boolean } = {}): Promise<SimulatedPile> {
  const pile = new SimulatedPile({
    url: h.url,
    chargePointId: id,
    password: await h.addPile(id),
    connectors: 2,
    meterIntervalMs: 50,
    timeScale: 613, // not a round number of Wh per sample: decimals
    reconnectDelayMs: 100,
    decimalRegister: true,
    lateSampleMs: 80,
    ...options,
  });
  piles.push(pile);
  await pile.start();
  return pile;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A session that has charged a little: started (answered) and metered. */
async function charging(
  pile: SimulatedPile,
  connectorId: number,
  idTag: string,
  bus: Parameters<SimulatedPile['startSession']>[2] = {},
): Promise<SessionRecord> {
  const session = await pile.startSession(connectorId, idTag, { autoStop: false, startSoc: 20, ...bus });
  await eventually(() => expect(session.transactionId).toBeDefined());
  // Samples the gateway has: a session lost now still has a last reading.
  await eventually(async () =>
    expect(
      await h.query(`SELECT 1 FROM ocpp_meter_sample WHERE transaction_id = $1 AND measurand = $2`, [
        session.transactionId,
        'Energy.Active.Import.Register',
      ]),
    ).not.toHaveLength(0),
  );
  return session;
}
const row = async (transactionId: number | undefined) =>
  (
    await h.query<{ stopped: boolean; rule: string | null }>(
      `SELECT stopped_at IS NOT NULL AS stopped, abandon_rule AS rule FROM ocpp_transaction WHERE transaction_id = $1`,
      [transactionId],
    )
  )[0];

it('every session ends, no card is stuck, and the bus carries exactly the expected events', async () => {
  const sessions: Record<string, SessionRecord> = {};
  await Promise.all([
    // Decimal registers, late samples, Charging -> Available without Finishing; one session stopped twice.
    (async () => {
      const pile = await fieldPile('F-1', { skipFinishing: true });
      sessions['twice'] = await charging(pile, 1, 'FIELD-1', { doubleStop: { extraWh: 80 } });
      sessions['plain'] = await charging(pile, 2, 'FIELD-2');
      await pile.stopSession(1, 'EVDisconnected');
      await pile.stopSession(2, 'Local');
      await pile.drained();
    })(),
    // Power lost mid-session on both guns: the stops are lost; after the boot the card charges again.
    (async () => {
      const pile = await fieldPile('F-2');
      sessions['lost1'] = await charging(pile, 1, 'FIELD-3');
      sessions['lost2'] = await charging(pile, 2, 'FIELD-4');
      await pile.powerLoss();
      sessions['after'] = await charging(pile, 1, 'FIELD-3'); // Authorize would refuse a stuck card
      await pile.stopSession(1, 'EVDisconnected');
      await pile.drained();
    })(),
    // Power lost, the stop kept and replayed after the boot: it completes the closed session.
    (async () => {
      const pile = await fieldPile('F-3');
      sessions['replayed'] = await charging(pile, 1, 'FIELD-5');
      await pile.powerLoss({ replayStopAfterMs: 300 });
      await eventually(() => expect(sessions['replayed'].stopReplayed).toBe(true));
      await pile.drained();
    })(),
    // A gun that forgets its session (Available, no stop); a planned session parked at 0 kW past the grace.
    (async () => {
      const pile = await fieldPile('F-4');
      sessions['forgotten'] = await charging(pile, 1, 'FIELD-6');
      sessions['parked'] = await charging(pile, 2, 'FIELD-7');
      await pile.suspendSession(2, 'SuspendedEV');
      await pile.forgetSession(1);
      await eventually(async () =>
        expect(await row(sessions['forgotten'].transactionId)).toMatchObject({ stopped: true }),
      );
      await sleep((GRACE_S + 1) * 1000);
      expect(await row(sessions['parked'].transactionId)).toEqual({ stopped: false, rule: null });
      await pile.resumeSession(2);
      await sleep(100);
      await pile.stopSession(2, 'EVDisconnected');
      await pile.drained();
    })(),
    // A pile that goes away for good mid-session.
    (async () => {
      const pile = await fieldPile('F-5');
      sessions['vanished'] = await charging(pile, 1, 'FIELD-8');
      await pile.vanish();
    })(),
    // A gun that forgets its session but stays Finishing, and a new session starts on it at once.
    (async () => {
      const pile = await fieldPile('F-6');
      sessions['replaced'] = await charging(pile, 1, 'FIELD-9');
      await pile.forgetSession(1, 'Finishing');
      sessions['replacing'] = await charging(pile, 1, 'FIELD-10');
      await pile.stopSession(1, 'Local');
      await pile.drained();
    })(),
  ]);
  // Only the vanished pile's session is still open: after the maximum age the sweep closes it.
  const open = await h.query<{ transaction_id: number }>(
    `SELECT transaction_id FROM ocpp_transaction WHERE charge_point_id LIKE 'F-%' AND stopped_at IS NULL`,
  );
  expect(open).toEqual([{ transaction_id: sessions['vanished'].transactionId }]);
  await h.gateway.sessionSweep.runOnce(new Date(Date.now() + 25 * 3_600_000));

  // Every session of every pile has ended at the gateway.
  const all = piles.flatMap((p) => p.sessions);
  expect(all).toHaveLength(Object.keys(sessions).length);
  for (const session of all) expect(await row(session.transactionId)).toMatchObject({ stopped: true });

  // No card is stuck: a pile asking for each of them is told Accepted; the copy this replica keeps in
  // memory (for when the database is down) forgot them too — but FIELD-6's session may have been closed by
  // the other replica's sweep, which this one learns at its next reload.
  const asker = await h.connect('F-ASK', await h.addPile('F-ASK'));
  for (const idTag of TAGS) {
    expect([idTag, await asker.call('Authorize', { idTag })]).toEqual([
      idTag,
      { idTagInfo: { status: 'Accepted' } },
    ]);
    if (idTag !== 'FIELD-6')
      expect([idTag, h.gateway.openTransactions.hasInMemory(idTag)]).toEqual([idTag, false]);
  }

  // Exactly the expected events.
  const idOf = (name: string) => sessions[name].transactionId!;
  const ofField = (type: string) =>
    h.events.filter(
      (e) => e.type === type && /^F-\d$/.test((e.payload as { chargePointId: string }).chargePointId),
    );
  await eventually(() => expect(ofField('transaction.abandoned')).toHaveLength(6));
  await eventually(() => expect(ofField('transaction.stopped')).toHaveLength(6));
  await sleep(300); // anything more (a second announcement) would have arrived by now
  const abandoned = ofField('transaction.abandoned').map((e) => e.payload as TransactionAbandonedV1);
  expect(abandoned).toHaveLength(6);
  expect(abandoned.map((p) => [p.transactionId, p.rule]).sort()).toEqual(
    [
      [idOf('lost1'), 'rebooted'],
      [idOf('lost2'), 'rebooted'],
      [idOf('replayed'), 'rebooted'],
      [idOf('forgotten'), 'connectorIdle'],
      [idOf('vanished'), 'maxAge'],
      [idOf('replaced'), 'newStart'],
    ].sort(),
  );
  // Each with a reading the pile reported (decimal), the last the gateway had when it closed the session.
  for (const payload of abandoned) {
    const session = all.find((s) => s.transactionId === payload.transactionId)!;
    expect(payload.lastMeterWh).toBeDefined();
    expect(session.readings.map((r) => r.energyWh)).toContain(payload.lastMeterWh);
  }
  const stopped = ofField('transaction.stopped').map((e) => e.payload as TransactionStoppedV1);
  expect(stopped.map((p) => [p.transactionId, p.meterStopWh, p.afterAbandon ?? false]).sort()).toEqual(
    [
      [idOf('twice'), sessions['twice'].meterStopWh, false],
      [idOf('plain'), sessions['plain'].meterStopWh, false],
      [idOf('after'), sessions['after'].meterStopWh, false],
      [idOf('replayed'), sessions['replayed'].meterStopWh, true],
      [idOf('parked'), sessions['parked'].meterStopWh, false],
      [idOf('replacing'), sessions['replacing'].meterStopWh, false],
    ].sort(),
  );
  expect(stopped.every((p) => !p.quarantined)).toBe(true);
  const repeats = ofField('transaction.stop-repeated').map((e) => e.payload as TransactionStopRepeatedV1);
  expect(repeats).toEqual([
    expect.objectContaining({
      transactionId: idOf('twice'),
      meterStopWh: sessions['twice'].repeatedStop!.meterStopWh,
      firstMeterStopWh: sessions['twice'].meterStopWh,
      reason: 'Other',
      firstReason: 'EVDisconnected',
      disagrees: true,
    }),
  ]);
  expect(ofField('transaction.started')).toHaveLength(all.length);

  // Decimal registers and the samples after the stops: nothing flagged, stored as sent.
  const meter = ofField('meter-values.received').map((e) => e.payload as MeterValuesV1);
  expect(meter.filter((m) => m.flagged)).toEqual([]);
  expect(
    await h.query(
      `SELECT flag, count(*)::int AS n FROM ocpp_meter_sample WHERE charge_point_id LIKE 'F-%' AND flag IS NOT NULL GROUP BY flag`,
    ),
  ).toEqual([]);
  for (const name of ['twice', 'plain', 'after', 'parked', 'replacing']) {
    const { lateSample, transactionId } = sessions[name];
    expect(
      await h.query(
        `SELECT value::float8 AS value FROM ocpp_meter_sample WHERE transaction_id = $1 AND sampled_at = $2`,
        [transactionId, lateSample!.at],
      ),
    ).toEqual([{ value: lateSample!.energyWh }]);
  }
  const decimals = await h.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ocpp_meter_sample
      WHERE charge_point_id LIKE 'F-%' AND measurand = 'Energy.Active.Import.Register' AND value <> trunc(value)`,
  );
  expect(decimals[0].n).toBeGreaterThan(10);

  // Charging -> Available without Finishing: recorded and announced as any status, nothing left behind.
  const f1Statuses = h.events
    .filter(
      (e) =>
        e.type === 'connector.status-changed' &&
        (e.payload as { chargePointId: string }).chargePointId === 'F-1',
    )
    .map((e) => (e.payload as { connectorId: number; status: string }).status);
  expect(f1Statuses).toContain('Charging');
  expect(f1Statuses).not.toContain('Finishing');
  expect(
    await h.query(
      `SELECT connector_id, status FROM connector_status WHERE charge_point_id = 'F-1' ORDER BY connector_id`,
    ),
  ).toEqual([
    { connector_id: 0, status: 'Available' },
    { connector_id: 1, status: 'Available' },
    { connector_id: 2, status: 'Available' },
  ]);

  // And every event of these piles is exactly of its declared type.
  const violations = h.events
    .filter((e) => /^F-\d$/.test((e.payload as { chargePointId?: string }).chargePointId ?? ''))
    .flatMap((envelope: EventEnvelope): unknown[] => {
      const result = ocppPayloadSchemaOf(envelope)?.safeParse(envelope.payload);
      return result?.success
        ? []
        : [{ type: envelope.type, payload: envelope.payload, issues: result?.error.issues }];
    });
  expect(violations).toEqual([]);
});
