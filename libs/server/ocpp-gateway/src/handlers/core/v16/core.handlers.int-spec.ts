import type { RPCClient } from 'ocpp-rpc';
import { bootRequest, GatewayTestHarness } from '../../../testing/fixtures/gateway-test-harness';

const h = new GatewayTestHarness();

beforeAll(() => h.start({ OCPP_HEARTBEAT_INTERVAL_S: 120, OCPP_BOOT_RETRY_INTERVAL_S: 30 }));
afterAll(() => h.stop());

async function pile(id: string, state: 'active' | 'pending' | 'disabled' = 'active'): Promise<RPCClient> {
  return h.connect(id, await h.addPile(id, { state }));
}

describe('BootNotification', () => {
  it.each([
    ['active', 'Accepted', 120],
    ['pending', 'Pending', 30],
    ['disabled', 'Rejected', 30],
  ] as const)('a %s pile is %s with interval %d', async (state, status, interval) => {
    const client = await pile(`CP-BOOT-${state}`, state);
    const response = (await client.call('BootNotification', {
      ...bootRequest,
      firmwareVersion: '1.2.3',
    })) as {
      status: string;
      interval: number;
      currentTime: string;
    };
    expect(response).toMatchObject({ status, interval });
    expect(Math.abs(Date.parse(response.currentTime) - Date.now())).toBeLessThan(5_000);
    const event = await h.waitForEvent(
      'pile.booted',
      (p: { chargePointId: string }) => p.chargePointId === `CP-BOOT-${state}`,
    );
    expect(event.payload).toMatchObject({
      vendor: 'Voltdepot',
      model: 'Sim-150',
      firmwareVersion: '1.2.3',
      registrationStatus: status,
    });
    expect(event.key).toBe(`CP-BOOT-${state}`);
  });
});

describe('Heartbeat', () => {
  it('answers with the current time', async () => {
    const client = await pile('CP-HB');
    const { currentTime } = (await client.call('Heartbeat', {})) as { currentTime: string };
    expect(Math.abs(Date.parse(currentTime) - Date.now())).toBeLessThan(5_000);
  });
});

describe('StatusNotification', () => {
  it('keeps the latest status and announces ConnectorStatusChanged', async () => {
    const client = await pile('CP-ST');
    await client.call('StatusNotification', {
      connectorId: 1,
      errorCode: 'NoError',
      status: 'Charging',
      timestamp: '2026-01-01T10:00:00Z',
    });
    // A late notification with an older timestamp does not overwrite the newer status.
    await client.call('StatusNotification', {
      connectorId: 1,
      errorCode: 'NoError',
      status: 'Preparing',
      timestamp: '2026-01-01T09:59:00Z',
    });
    const rows = await h.query(
      `SELECT status, error_code FROM connector_status WHERE charge_point_id = 'CP-ST'`,
    );
    expect(rows).toEqual([{ status: 'Charging', error_code: 'NoError' }]);
    const event = await h.waitForEvent(
      'connector.status-changed',
      (p: { chargePointId: string; status: string }) =>
        p.chargePointId === 'CP-ST' && p.status === 'Charging',
    );
    expect(event.payload).toMatchObject({
      connectorId: 1,
      errorCode: 'NoError',
      timestamp: '2026-01-01T10:00:00.000Z',
    });
    expect(
      h
        .eventsOfType('pile.error')
        .filter((e) => (e.payload as { chargePointId: string }).chargePointId === 'CP-ST'),
    ).toHaveLength(0);
  });

  it('announces PileError when errorCode is not NoError', async () => {
    const client = await pile('CP-ERR');
    await client.call('StatusNotification', {
      connectorId: 2,
      errorCode: 'HighTemperature',
      status: 'Faulted',
      info: 'cable 92C',
      vendorErrorCode: 'T-92',
    });
    const event = await h.waitForEvent(
      'pile.error',
      (p: { chargePointId: string }) => p.chargePointId === 'CP-ERR',
    );
    expect(event.payload).toMatchObject({
      connectorId: 2,
      errorCode: 'HighTemperature',
      status: 'Faulted',
      info: 'cable 92C',
      vendorErrorCode: 'T-92',
    });
    await h.waitForEvent(
      'connector.status-changed',
      (p: { chargePointId: string }) => p.chargePointId === 'CP-ERR',
    );
  });
});

describe('DataTransfer, DiagnosticsStatusNotification, FirmwareStatusNotification', () => {
  it('answers each as OCPP 1.6 requires', async () => {
    const client = await pile('CP-MISC');
    expect(
      await client.call('DataTransfer', { vendorId: 'com.example', messageId: 'x', data: '{}' }),
    ).toEqual({ status: 'UnknownVendorId' });
    expect(await client.call('DiagnosticsStatusNotification', { status: 'Uploaded' })).toEqual({});
    expect(await client.call('FirmwareStatusNotification', { status: 'Installed' })).toEqual({});
  });
});
