import { DiagnosticsStatusChanged, FirmwareStatusChanged } from '@voltdepot/shared-events';
import { eventually } from '@voltdepot/server-testing';
import { GatewayTestHarness } from '../../../testing/fixtures/gateway-test-harness';

const h = new GatewayTestHarness();

beforeAll(() => h.start());
afterAll(() => h.stop());

type Row = { kind: string; status: string; status_at: Date };
const stored = (chargePointId: string) =>
  h.query<Row>(
    `SELECT kind, status, status_at FROM ocpp_pile_firmware_status WHERE charge_point_id = $1 ORDER BY kind`,
    [chargePointId],
  );

describe('FirmwareStatusNotification and DiagnosticsStatusNotification', () => {
  it('keep the latest status per pile and kind, and announce every step in order', async () => {
    const client = await h.connect('FW-1', await h.addPile('FW-1'));
    for (const status of ['Downloading', 'Downloaded', 'Installing', 'Installed'])
      await expect(client.call('FirmwareStatusNotification', { status })).resolves.toEqual({});
    await client.call('DiagnosticsStatusNotification', { status: 'Uploading' });
    await client.call('DiagnosticsStatusNotification', { status: 'UploadFailed' });

    // Answered only after the commit: the rows are there at once.
    const rows = await stored('FW-1');
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ['diagnostics', 'UploadFailed'],
      ['firmware', 'Installed'],
    ]);

    const firmware = await eventually(() => {
      const events = h.events.filter((e) => FirmwareStatusChanged.is(e) && e.key === 'FW-1');
      if (events.length < 4) throw new Error(`${events.length} firmware events`);
      return events;
    });
    expect(firmware.map((e) => (e.payload as { status: string }).status)).toEqual([
      'Downloading',
      'Downloaded',
      'Installing',
      'Installed',
    ]);
    expect(firmware[0]).toMatchObject({
      topic: 'ocpp.status',
      type: 'firmware.status-changed',
      version: 1,
      payload: { chargePointId: 'FW-1', status: 'Downloading', timestamp: expect.any(String) },
    });
    const diagnostics = await eventually(() => {
      const events = h.events.filter((e) => DiagnosticsStatusChanged.is(e) && e.key === 'FW-1');
      if (events.length < 2) throw new Error(`${events.length} diagnostics events`);
      return events;
    });
    expect(diagnostics.map((e) => (e.payload as { status: string }).status)).toEqual([
      'Uploading',
      'UploadFailed',
    ]);
    expect(await h.gateway.firmwareStatus.latest('FW-1')).toEqual([
      { kind: 'diagnostics', status: 'UploadFailed', statusAt: rows[0].status_at.toISOString() },
      { kind: 'firmware', status: 'Installed', statusAt: rows[1].status_at.toISOString() },
    ]);
  });

  it('an older notification never overwrites a newer status, and piles do not share rows', async () => {
    await h.query(
      `INSERT INTO ocpp_pile_firmware_status (charge_point_id, kind, status, status_at)
       VALUES ('FW-2', 'firmware', 'Installing', now() + interval '1 hour')`,
    );
    const client = await h.connect('FW-2', await h.addPile('FW-2'));
    await client.call('FirmwareStatusNotification', { status: 'DownloadFailed' });
    expect((await stored('FW-2')).map((r) => r.status)).toEqual(['Installing']);
    expect((await stored('FW-1')).find((r) => r.kind === 'firmware')?.status).toBe('Installed');
  });

  it('a status outside OCPP 1.6 is refused by the schema and stores nothing', async () => {
    const { ws, frames } = await h.rawSocket('FW-3', await h.addPile('FW-3'));
    ws.send('[2,"fw","FirmwareStatusNotification",{"status":"Teleporting"}]');
    const reply = await eventually(() => {
      if (!frames.length) throw new Error('no reply');
      return JSON.parse(frames[0]) as unknown[];
    });
    ws.close();
    expect(reply.slice(0, 2)).toEqual([4, 'fw']);
    expect(String(reply[2])).toMatch(/Violation/);
    expect(await stored('FW-3')).toEqual([]);
  });
});
