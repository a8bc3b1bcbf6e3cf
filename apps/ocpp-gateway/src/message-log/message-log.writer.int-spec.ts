import { eventually } from '@voltdepot/server-testing';
import { bootRequest, GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';
import { MessageLogWriter } from './message-log.writer';

const h = new GatewayTestHarness();

beforeAll(() => h.start());
afterAll(() => h.stop());

type LogRow = {
  direction: string;
  message_type: number | null;
  message_id: string | null;
  action: string | null;
  frame: string;
};

describe('OCPP message log', () => {
  it('records every frame in and out per pile, with direction, action and time', async () => {
    const client = await h.connect('CP-LOG', await h.addPile('CP-LOG'));
    await client.call('BootNotification', bootRequest);
    await client.call('Heartbeat', {});
    await h.gateway.commands.sendCommand('CP-LOG', 'ClearCache', {}).catch(() => undefined); // the client answers NotImplemented
    const rows = await eventually(async () => {
      const r = await h.query<LogRow>(
        `SELECT direction, message_type, message_id, action, frame FROM ocpp_message_log WHERE charge_point_id = 'CP-LOG' ORDER BY id`,
      );
      if (r.length < 6) throw new Error(`only ${r.length} frames`);
      return r;
    });
    expect(rows.map((r) => [r.direction, r.message_type, r.action])).toEqual([
      ['in', 2, 'BootNotification'],
      ['out', 3, 'BootNotification'],
      ['in', 2, 'Heartbeat'],
      ['out', 3, 'Heartbeat'],
      ['out', 2, 'ClearCache'],
      ['in', 4, 'ClearCache'],
    ]);
    expect(rows[1].message_id).toBe(rows[0].message_id);
    expect(JSON.parse(rows[1].frame)[2]).toMatchObject({ status: 'Accepted' });
  });

  it('records malformed frames as they came', async () => {
    const { ws } = await h.rawSocket('CP-LOG2', await h.addPile('CP-LOG2'));
    ws.send('not json at all');
    const rows = await eventually(async () => {
      const r = await h.query<LogRow>(
        `SELECT direction, message_type, frame FROM ocpp_message_log WHERE charge_point_id = 'CP-LOG2' ORDER BY id`,
      );
      if (r.length < 2) throw new Error('not yet');
      return r;
    });
    expect(rows[0]).toMatchObject({ direction: 'in', message_type: null, frame: 'not json at all' });
    expect(rows[1]).toMatchObject({ direction: 'out', message_type: 4 });
    ws.close();
  });

  it('deletes frames older than the retention period', async () => {
    await h.query(
      `INSERT INTO ocpp_message_log (charge_point_id, direction, frame, logged_at) VALUES
         ('CP-OLD', 'in', '[2,"a","Heartbeat",{}]', now() - interval '8 days'),
         ('CP-OLD', 'in', '[2,"b","Heartbeat",{}]', now() - interval '6 days')`,
    );
    const writer = new MessageLogWriter(h.db.dataSource, { retentionDays: 7 });
    expect(await writer.sweep()).toBe(1);
    expect(await h.query(`SELECT frame FROM ocpp_message_log WHERE charge_point_id = 'CP-OLD'`)).toEqual([
      { frame: '[2,"b","Heartbeat",{}]' },
    ]);
  });

  it('writes in batches and drops (and counts) frames beyond its buffer instead of blocking', async () => {
    const writer = new MessageLogWriter(h.db.dataSource, {
      maxBuffered: 100,
      batchSize: 1000,
      flushIntervalMs: 10_000,
    });
    for (let i = 0; i < 150; i++) writer.record('CP-BURST', 'in', `[2,"m${i}","Heartbeat",{}]`);
    expect(writer.dropped).toBe(50);
    await writer.flush();
    expect(writer.written).toBe(100);
    const [{ n }] = await h.query<{ n: string }>(
      `SELECT count(*) AS n FROM ocpp_message_log WHERE charge_point_id = 'CP-BURST'`,
    );
    expect(Number(n)).toBe(100);
  });
});
