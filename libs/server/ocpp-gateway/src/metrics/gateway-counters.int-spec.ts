import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { RPCClient } from 'ocpp-rpc';
import { eventually } from '@voltdepot/server-testing';
import { GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';

const h = new GatewayTestHarness();

beforeAll(() => h.start({ OCPP_AUTH_MAX_FAILURES_PER_PILE: 3 }));
afterAll(() => h.stop());

/** The value of one series (0 when it does not exist yet). */
async function value(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metrics = (await h.gateway.metrics.registry.getMetricsAsJSON()) as MetricObjectWithValues<
    MetricValue<string>
  >[];
  const metric = metrics.find((m) => m.name === name);
  if (!metric) throw new Error(`no metric ${name}`);
  const series = metric.values.find((v) =>
    Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want),
  );
  return series?.value ?? 0;
}

/** Resolves with the close code once the client's connection ends. */
function closed(client: RPCClient): Promise<number> {
  return new Promise((resolve) => client.once('close', ({ code }: { code: number }) => resolve(code)));
}

describe('gateway counters', () => {
  it('counts refused handshakes by status', async () => {
    const count = (status: string) => value('voltdepot_ocpp_handshakes_refused_total', { status });
    const before = {
      400: await count('400'),
      401: await count('401'),
      404: await count('404'),
      429: await count('429'),
    };
    const password = await h.addPile('CNT-HS');
    expect(await h.handshakeStatus('CNT-HS', 'wrong-password')).toBe(401);
    expect(await h.handshakeStatus('CNT-HS', 'wrong-password')).toBe(401);
    expect(await h.handshakeStatus('CNT-NOBODY', 'pw')).toBe(401);
    expect(await h.handshakeStatus('CNT-HS', password, ['ocpp2.0.1'])).toBe(400);
    expect(await h.handshakeStatus('CNT-HS', password, ['ocpp1.6'], '/elsewhere')).toBe(404);
    // The third failure of CNT-HS locks it: 429 even with its password.
    expect(await h.handshakeStatus('CNT-HS', 'wrong-password')).toBe(401);
    expect(await h.handshakeStatus('CNT-HS', password)).toBe(429);
    expect(await count('401')).toBe(before[401] + 4);
    expect(await count('404')).toBe(before[404] + 1);
    expect(await count('400')).toBe(before[400] + 1);
    expect(await count('429')).toBe(before[429] + 1);
  });

  it('counts closed connections by reason: replaced, revoked, bad messages, other', async () => {
    const count = (reason: string) => value('voltdepot_ocpp_connections_closed_total', { reason });
    const before = {
      replaced: await count('replaced'),
      revoked: await count('revoked'),
      bad_messages: await count('bad_messages'),
      other: await count('other'),
    };

    const password = await h.addPile('CNT-REPL');
    const first = await h.connect('CNT-REPL', password);
    const firstClosed = closed(first);
    const second = await h.connect('CNT-REPL', password);
    expect(await firstClosed).toBe(4001);
    await eventually(async () => expect(await count('replaced')).toBe(before.replaced + 1));

    const secondClosed = closed(second);
    await h.query(`UPDATE pile_registry SET state = 'disabled' WHERE charge_point_id = 'CNT-REPL'`);
    expect(await secondClosed).toBe(4003);
    await eventually(async () => expect(await count('revoked')).toBe(before.revoked + 1));

    const { ws } = await h.rawSocket('CNT-BAD', await h.addPile('CNT-BAD'));
    const badClosed = new Promise<number>((resolve) => ws.once('close', (code: number) => resolve(code)));
    for (let i = 0; i < 12; i++) ws.send('not json');
    expect(await badClosed).toBe(1002);
    await eventually(async () => expect(await count('bad_messages')).toBe(before.bad_messages + 1));

    const normal = await h.connect('CNT-BYE', await h.addPile('CNT-BYE'));
    await normal.close({ code: 1000 });
    await eventually(async () => expect(await count('other')).toBe(before.other + 1));
    // Nothing else moved.
    expect(await count('replaced')).toBe(before.replaced + 1);
    expect(await count('revoked')).toBe(before.revoked + 1);
  });

  it('counts quarantined stops and flagged meter samples by flag, once committed', async () => {
    const quarantined = await value('voltdepot_ocpp_quarantined_stops_total');
    const unparseable = await value('voltdepot_ocpp_flagged_meter_samples_total', { flag: 'unparseable' });
    const unknownTx = await value('voltdepot_ocpp_flagged_meter_samples_total', {
      flag: 'unknown-transaction',
    });
    const client = await h.connect('CNT-TX', await h.addPile('CNT-TX'));
    const base = Date.now() - 60_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    await client.call('MeterValues', {
      connectorId: 1,
      meterValue: [
        {
          timestamp: at(1),
          sampledValue: [{ value: 'abc' }, { value: '12', measurand: 'Voltage', unit: 'V' }],
        },
      ],
    });
    await client.call('MeterValues', {
      connectorId: 1,
      transactionId: 424242,
      meterValue: [{ timestamp: at(2), sampledValue: [{ value: '100' }] }],
    });
    // A plain sample moves nothing.
    await client.call('MeterValues', {
      connectorId: 1,
      meterValue: [{ timestamp: at(3), sampledValue: [{ value: '100' }] }],
    });
    await client.call('StopTransaction', { transactionId: 987654, meterStop: 1000, timestamp: at(4) });
    // The same stop again is no new quarantine.
    await client.call('StopTransaction', { transactionId: 987654, meterStop: 1000, timestamp: at(4) });

    expect(await value('voltdepot_ocpp_flagged_meter_samples_total', { flag: 'unparseable' })).toBe(
      unparseable + 1,
    );
    expect(await value('voltdepot_ocpp_flagged_meter_samples_total', { flag: 'unknown-transaction' })).toBe(
      unknownTx + 1,
    );
    expect(await value('voltdepot_ocpp_quarantined_stops_total')).toBe(quarantined + 1);
  });

  it('counts id-tag look-ups by answer (the test gateway caches nothing: each Authorize reads)', async () => {
    const read = await value('voltdepot_ocpp_id_tag_lookups_total', { result: 'read' });
    const hit = await value('voltdepot_ocpp_id_tag_lookups_total', { result: 'hit' });
    const client = await h.connect('CNT-TAG', await h.addPile('CNT-TAG'));
    const tag = `CNT-${Date.now() % 1_000_000}`;
    await client.call('Authorize', { idTag: tag });
    await client.call('Authorize', { idTag: tag });
    expect(await value('voltdepot_ocpp_id_tag_lookups_total', { result: 'read' })).toBe(read + 2);
    expect(await value('voltdepot_ocpp_id_tag_lookups_total', { result: 'hit' })).toBe(hit);
  });

  it('exposes the message log drops and retries as counters', async () => {
    const text = await h.gateway.metrics.registry.metrics();
    expect(text).toContain('# TYPE voltdepot_ocpp_message_log_dropped_total counter');
    expect(text).toContain('# TYPE voltdepot_ocpp_message_log_write_retries_total counter');
    expect(text).not.toMatch(/^voltdepot_ocpp_message_log_dropped /m); // the old gauge is gone
  });
});
