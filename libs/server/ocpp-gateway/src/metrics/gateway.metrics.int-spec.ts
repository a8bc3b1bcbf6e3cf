import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import { eventually } from '@voltdepot/server-testing';
import { GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';

const h = new GatewayTestHarness();
let pile: SimulatedPile;

beforeAll(async () => {
  await h.start();
  pile = new SimulatedPile({
    url: h.url,
    chargePointId: 'MET-SIM',
    password: await h.addPile('MET-SIM'),
    connectors: 1,
    meterIntervalMs: 1_000,
  });
  await pile.start();
});
afterAll(async () => {
  await pile.stop();
  await h.stop();
});

/** The value of one series (0 when it does not exist yet). */
async function value(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metrics = (await h.gateway.metrics.registry.getMetricsAsJSON()) as MetricObjectWithValues<
    MetricValue<string> & { metricName?: string }
  >[];
  // A histogram's _count and _sum series live under the histogram's own name.
  const metric = metrics.find((m) => m.name === name || name.startsWith(`${m.name}_`));
  if (!metric) throw new Error(`no metric ${name}`);
  const series = metric.values.find(
    (v) =>
      (v.metricName ?? metric.name) === name &&
      Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want),
  );
  return series?.value ?? 0;
}

describe('gateway metrics', () => {
  it('counts connected piles', async () => {
    expect(await value('voltdepot_ocpp_connected_piles')).toBe(1);
    const other = await h.connect('MET-2', await h.addPile('MET-2'));
    await eventually(async () => expect(await value('voltdepot_ocpp_connected_piles')).toBe(2));
    await other.close();
    await eventually(async () => expect(await value('voltdepot_ocpp_connected_piles')).toBe(1));
  });

  it('counts calls from piles by action and result, and times them', async () => {
    const client = await h.connect('MET-3', await h.addPile('MET-3'));
    const heartbeats = await value('voltdepot_ocpp_messages_total', {
      direction: 'in',
      action: 'Heartbeat',
      result: 'result',
    });
    const timed = await value('voltdepot_ocpp_call_duration_seconds_count', { action: 'MeterValues' });
    await client.call('Heartbeat', {});
    await client.call('Heartbeat', {});
    await client.call('MeterValues', {
      connectorId: 1,
      meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: '10' }] }],
    });
    expect(
      await value('voltdepot_ocpp_messages_total', {
        direction: 'in',
        action: 'Heartbeat',
        result: 'result',
      }),
    ).toBe(heartbeats + 2);
    expect(await value('voltdepot_ocpp_call_duration_seconds_count', { action: 'MeterValues' })).toBe(
      timed + 1,
    );
    expect(await value('voltdepot_ocpp_write_batch_size_count', { writer: 'meter-values' })).toBeGreaterThan(
      0,
    );
  });

  it('counts CallErrors by code, malformed frames, and refused calls under their action', async () => {
    const notImplemented = await value('voltdepot_ocpp_call_errors_total', { code: 'NotImplemented' });
    const framework = await value('voltdepot_ocpp_call_errors_total', { code: 'RpcFrameworkError' });
    const security = await value('voltdepot_ocpp_call_errors_total', { code: 'SecurityError' });
    const { ws, frames } = await h.rawSocket('MET-RAW', await h.addPile('MET-RAW'));
    ws.send('[2,"a","TeleportBus",{}]');
    ws.send('not json');
    await eventually(() => expect(frames).toHaveLength(2));
    ws.close();
    expect(await value('voltdepot_ocpp_call_errors_total', { code: 'NotImplemented' })).toBe(
      notImplemented + 1,
    );
    expect(await value('voltdepot_ocpp_call_errors_total', { code: 'RpcFrameworkError' })).toBe(
      framework + 1,
    );
    // An action a pile made up is counted as 'unknown', not as a series of its own.
    expect(
      await value('voltdepot_ocpp_messages_total', {
        direction: 'in',
        action: 'unknown',
        result: 'call_error',
      }),
    ).toBeGreaterThan(0);
    expect(
      await value('voltdepot_ocpp_messages_total', {
        direction: 'in',
        action: 'unknown',
        result: 'malformed',
      }),
    ).toBeGreaterThan(0);
    const metrics = await h.gateway.metrics.registry.metrics();
    expect(metrics).not.toContain('TeleportBus');

    const unbooted = await h.connect('MET-NEW', await h.addPile('MET-NEW', { booted: false }));
    await expect(unbooted.call('Heartbeat', {})).rejects.toMatchObject({ rpcErrorCode: 'SecurityError' });
    expect(await value('voltdepot_ocpp_call_errors_total', { code: 'SecurityError' })).toBe(security + 1);
    expect(
      await value('voltdepot_ocpp_messages_total', {
        direction: 'in',
        action: 'Heartbeat',
        result: 'call_error',
      }),
    ).toBeGreaterThan(0);
  });

  it('counts commands by action and result, and the calls sent to piles', async () => {
    await h.gateway.commands.sendCommand('MET-SIM', 'GetConfiguration', {});
    await expect(h.gateway.commands.sendCommand('MET-GONE', 'Reset', { type: 'Soft' })).rejects.toThrow();
    await expect(
      h.gateway.commands.sendCommand('MET-SIM', 'Reset', { type: 'Gentle' } as never),
    ).rejects.toThrow();
    expect(
      await value('voltdepot_ocpp_commands_total', { action: 'GetConfiguration', result: 'completed' }),
    ).toBe(1);
    expect(await value('voltdepot_ocpp_commands_total', { action: 'Reset', result: 'offline' })).toBe(1);
    expect(await value('voltdepot_ocpp_commands_total', { action: 'Reset', result: 'invalid' })).toBe(1);
    expect(
      await value('voltdepot_ocpp_messages_total', {
        direction: 'out',
        action: 'GetConfiguration',
        result: 'result',
      }),
    ).toBe(1);
  });
});
