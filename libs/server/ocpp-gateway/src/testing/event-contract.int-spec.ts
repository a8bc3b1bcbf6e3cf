/**
 * The event contract: every event the gateway publishes, as a consumer reads it from the bus, has exactly
 * the payload its type in libs/shared/events declares (every field, no other; checked with the schemas
 * declared against those types). A simulated pile goes through a pile's life: it connects and boots,
 * reports and clears a fault, charges on a reservation (meter values, a stop with transactionData), charges
 * again and stops twice (a repeated stop) with an unparseable meter value on the way (never announced with
 * a null value), loses power mid-session (the session closed by rule, its stop replayed after the boot),
 * sends meter values and a stop for transactions nobody knows, follows a firmware update and a
 * diagnostics upload, and disconnects.
 */
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import { eventually } from '@voltdepot/server-testing';
import { ocppPayloadSchemaOf, Topics, type EventEnvelope } from '@voltdepot/shared-events';
import { GatewayTestHarness } from './fixtures/gateway-test-harness';

const h = new GatewayTestHarness();
const PILE = 'EC-1';
const TAG = 'EC-TAG';
let pile: SimulatedPile;

beforeAll(async () => {
  await h.start();
  await h.addIdTag(TAG, 'Accepted');
  await h.query(
    `INSERT INTO alarm_code (protocol_type, code, name, level, category, description)
     VALUES ('ocpp1.6', 'GroundFailure', 'Ground fault', 3, 'general', 'Residual current detected')`,
  );
  pile = new SimulatedPile({
    url: h.url,
    chargePointId: PILE,
    password: await h.addPile(PILE, { booted: false }),
    connectors: 2,
    meterIntervalMs: 50,
    timeScale: 60,
    statusStepMs: 30,
  });
});
afterAll(async () => {
  await pile.stop();
  await h.stop();
});

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const published = (type: string, predicate: (payload: Record<string, unknown>) => boolean = () => true) =>
  h.waitForEvent<Record<string, unknown>>(type, (p) => p['chargePointId'] === PILE && predicate(p));

it('every event published for a pile has exactly the payload of its type', async () => {
  await pile.start();
  await published('pile.booted');

  await pile.reportFault(2, 'GroundFailure', 'residual current');
  await published('pile.error');
  await pile.clearFault(2);
  await published('pile.error-cleared');

  const send = h.gateway.commands.sendCommand.bind(h.gateway.commands);
  await send(PILE, 'ReserveNow', { connectorId: 1, expiryDate: inMs(60_000), idTag: TAG, reservationId: 7 });
  const session = await pile.startSession(1, TAG, { autoStop: false });
  await published('meter-values.received', (p) => p['transactionId'] !== undefined);
  await pile.stopSession(1, 'EVDisconnected');
  await published('transaction.stopped', (p) => p['transactionId'] === session.transactionId);

  // Stopped twice: the second StopTransaction (another reason, a higher meterStop) is a repeat. On the way
  // an unparseable energy value next to a power value: only the power value is announced.
  const twice = await pile.startSession(2, TAG, { autoStop: false, doubleStop: { extraWh: 50 } });
  await published('meter-values.received', (p) => p['transactionId'] === twice.transactionId);
  await pile.call('MeterValues', {
    connectorId: 2,
    transactionId: twice.transactionId,
    meterValue: [
      {
        timestamp: new Date().toISOString(),
        sampledValue: [
          { value: 'n/a', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
          { value: '12.5', measurand: 'Power.Active.Import', unit: 'kW' },
        ],
      },
    ],
  });
  await pile.stopSession(2, 'EVDisconnected');
  await published('transaction.stop-repeated', (p) => p['transactionId'] === twice.transactionId);

  // Power lost mid-session: at its boot the pile reports the gun Available (rule rebooted), then replays
  // the stop it had kept, which completes the closed session.
  const lost = await pile.startSession(1, TAG, { autoStop: false });
  await published('meter-values.received', (p) => p['transactionId'] === lost.transactionId);
  await pile.powerLoss({ replayStopAfterMs: 100 });
  await published('transaction.abandoned', (p) => p['transactionId'] === lost.transactionId);
  await published('transaction.stopped', (p) => p['transactionId'] === lost.transactionId);

  // Messages claiming transactions this system never gave: flagged samples, a quarantined stop.
  const at = new Date().toISOString();
  await pile.call('MeterValues', {
    connectorId: 2,
    transactionId: 990_001,
    meterValue: [
      { timestamp: at, sampledValue: [{ value: '1500', measurand: 'Energy.Active.Import.Register' }] },
    ],
  });
  await pile.call('StopTransaction', {
    transactionId: 990_002,
    meterStop: 1500,
    timestamp: at,
    reason: 'PowerLoss',
  });
  await published('transaction.stopped', (p) => p['quarantined'] === true);

  await send(PILE, 'UpdateFirmware', { location: 'https://fw.example/sim-2.0.bin', retrieveDate: inMs(50) });
  await send(PILE, 'GetDiagnostics', { location: 'ftp://logs.example/upload/' });
  await published('firmware.status-changed', (p) => p['status'] === 'Installed');
  await published('diagnostics.status-changed', (p) => p['status'] === 'Uploaded');

  await pile.stop();
  await published('pile.disconnected');

  const events = h.events.filter(
    (e) =>
      (e.topic === Topics.OcppStatus || e.topic === Topics.OcppTransactions) &&
      (e.payload as { chargePointId?: string }).chargePointId === PILE,
  );
  // Every OCPP event type the gateway publishes was seen...
  expect(new Set(events.map((e) => e.type))).toEqual(
    new Set([
      'pile.connected',
      'pile.booted',
      'connector.status-changed',
      'pile.error',
      'pile.error-cleared',
      'transaction.started',
      'meter-values.received',
      'transaction.stopped',
      'transaction.stop-repeated',
      'transaction.abandoned',
      'firmware.status-changed',
      'diagnostics.status-changed',
      'pile.disconnected',
    ]),
  );
  // ...with the optional parts too (else they would go unchecked).
  const payloads = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload as never);
  expect(payloads('pile.error')).toContainEqual(expect.objectContaining({ alarm: expect.any(Object) }));
  expect(payloads('transaction.started')).toContainEqual(expect.objectContaining({ reservationId: 7 }));
  expect(payloads('transaction.stopped')).toContainEqual(
    expect.objectContaining({ energyWh: expect.any(Number) }),
  );
  expect(payloads('meter-values.received')).toContainEqual(
    expect.objectContaining({
      flagged: true,
      samples: [expect.objectContaining({ flag: 'unknown-transaction' })],
    }),
  );
  expect(payloads('meter-values.received')).toContainEqual(
    expect.objectContaining({
      transactionId: twice.transactionId,
      flagged: false,
      samples: [expect.objectContaining({ measurand: 'Power.Active.Import', value: 12_500 })],
    }),
  );
  expect(
    await h.query(`SELECT flag FROM ocpp_meter_sample WHERE transaction_id = $1 AND value = 'NaN'`, [
      twice.transactionId,
    ]),
  ).toEqual([{ flag: 'unparseable' }]);
  expect(payloads('transaction.stop-repeated')).toEqual([
    expect.objectContaining({ transactionId: twice.transactionId, disagrees: true }),
  ]);
  expect(payloads('transaction.abandoned')).toEqual([
    expect.objectContaining({
      transactionId: lost.transactionId,
      rule: 'rebooted',
      lastMeterWh: expect.any(Number),
      lastSampleAt: expect.any(String),
    }),
  ]);
  expect(payloads('transaction.stopped')).toContainEqual(
    expect.objectContaining({ transactionId: lost.transactionId, afterAbandon: true, reason: 'PowerLoss' }),
  );

  // ...and each payload is exactly its type: the schema refuses a missing, mistyped or unknown field.
  const violations = events.flatMap((envelope: EventEnvelope): unknown[] => {
    const schema = ocppPayloadSchemaOf(envelope);
    if (!schema) return [{ type: envelope.type, version: envelope.version, problem: 'no payload type' }];
    const result = schema.safeParse(envelope.payload);
    return result.success
      ? []
      : [{ type: envelope.type, payload: envelope.payload, issues: result.error.issues }];
  });
  expect(violations).toEqual([]);
  expect(events.length).toBeGreaterThan(20);
  await eventually(() => expect(pile.online).toBe(false));
});
