import type { DataSource } from 'typeorm';
import { eventually } from '@voltdepot/server-testing';
import { bootRequest, GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';
import { MessageLogWriter, type MessageLogDropReason } from './message-log.writer';

/** The test database, with a hook that sees (and may fail) each statement before it runs. */
function hookedDataSource(before: (sql: string) => void): DataSource {
  const real = h.db.dataSource;
  return {
    query: (sql: string, params?: unknown[]) => {
      before(sql);
      return real.query(sql, params);
    },
  } as unknown as DataSource;
}

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

  it('names each answer after the call of its own connection, with the time it was logged', async () => {
    const writer = new MessageLogWriter(h.db.dataSource, { flushIntervalMs: 60_000 });
    const a = writer.forPile('CP-LOG-A');
    const b = writer.forPile('CP-LOG-B');
    const before = Date.now();
    // Both piles use message id "1"; B's answer comes first, and A answers once more after its answer.
    a('in', '[2,"1","Heartbeat",{}]');
    b('in', '[2,"1","StatusNotification",{}]');
    b('out', '[3,"1",{}]');
    a('out', '[4,"1","InternalError","",{}]');
    a('out', '[3,"1",{}]');
    // An answer for no call of this connection, and a call of another recorder for the same pile.
    writer.forPile('CP-LOG-A')('out', '[3,"1",{}]');
    await writer.flush();
    const rows = await h.query<LogRow & { charge_point_id: string; logged_at: Date }>(
      `SELECT charge_point_id, direction, message_type, action, logged_at FROM ocpp_message_log
        WHERE charge_point_id IN ('CP-LOG-A', 'CP-LOG-B') ORDER BY id`,
    );
    expect(rows.map((r) => [r.charge_point_id, r.direction, r.message_type, r.action])).toEqual([
      ['CP-LOG-A', 'in', 2, 'Heartbeat'],
      ['CP-LOG-B', 'in', 2, 'StatusNotification'],
      ['CP-LOG-B', 'out', 3, 'StatusNotification'],
      ['CP-LOG-A', 'out', 4, 'Heartbeat'],
      ['CP-LOG-A', 'out', 3, null],
      ['CP-LOG-A', 'out', 3, null],
    ]);
    for (const row of rows) {
      expect(row.logged_at.getTime()).toBeGreaterThanOrEqual(before);
      expect(row.logged_at.getTime()).toBeLessThanOrEqual(Date.now());
    }
  });

  it('forgets the open calls of a connection that never answers beyond a few', async () => {
    const writer = new MessageLogWriter(h.db.dataSource, { flushIntervalMs: 60_000 });
    const log = writer.forPile('CP-LOG-SILENT');
    for (let i = 0; i < 40; i++) log('out', `[2,"c${i}","GetConfiguration",{}]`);
    log('in', '[3,"c0",{}]'); // long forgotten
    log('in', '[3,"c39",{}]'); // still remembered
    await writer.flush();
    const rows = await h.query<LogRow>(
      `SELECT message_id, action FROM ocpp_message_log
        WHERE charge_point_id = 'CP-LOG-SILENT' AND message_type = 3 ORDER BY id`,
    );
    expect(rows).toEqual([
      { message_id: 'c0', action: null },
      { message_id: 'c39', action: 'GetConfiguration' },
    ]);
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

  it('keeps frames whose text PostgreSQL cannot hold (NUL, unpaired surrogates) and characters JSON escapes, in one batch', async () => {
    const writer = new MessageLogWriter(h.db.dataSource, { flushIntervalMs: 60_000 });
    const odd = [
      '[2,"n\\u0000ul","Heart\\u0000beat",{}]',
      'quote " backslash \\ tab \t newline \n é 桩 \u0001 nul \u0000.',
      // An id of a lone surrogate, and one whose 100-character cut splits a pair.
      '[2,"\\ud800","Heartbeat",{}]',
      `[2,"${'x'.repeat(99)}\\ud83d\\udd0c","Heartbeat",{}]`,
    ];
    writer.record('CP-LOG3', 'in', odd[0]);
    writer.record('CP-LOG3', 'out', odd[1]);
    writer.record('CP-LOG3', 'in', odd[2]);
    writer.record('CP-LOG3', 'in', odd[3]);
    await writer.flush();
    const rows = await h.query<LogRow>(
      `SELECT direction, message_type, message_id, action, frame FROM ocpp_message_log
        WHERE charge_point_id = 'CP-LOG3' ORDER BY id`,
    );
    expect(rows).toEqual([
      { direction: 'in', message_type: 2, message_id: 'nul', action: 'Heartbeat', frame: odd[0] },
      {
        direction: 'out',
        message_type: null,
        message_id: null,
        action: null,
        frame: odd[1].replace('\u0000', ''),
      },
      { direction: 'in', message_type: 2, message_id: '\uFFFD', action: 'Heartbeat', frame: odd[2] },
      {
        direction: 'in',
        message_type: 2,
        message_id: `${'x'.repeat(99)}\uFFFD`,
        action: 'Heartbeat',
        frame: odd[3],
      },
    ]);
    expect(writer.written).toBe(4);
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

  it('deletes in chunks of retentionChunk rows, one statement each, until nothing old is left', async () => {
    await h.query(
      `INSERT INTO ocpp_message_log (charge_point_id, direction, frame, logged_at)
       SELECT 'CP-CHUNK', 'in', '[2,"x' || i || '","Heartbeat",{}]', now() - interval '10 days' - i * interval '1 second'
         FROM generate_series(1, 25) AS i`,
    );
    await h.query(
      `INSERT INTO ocpp_message_log (charge_point_id, direction, frame, logged_at)
       VALUES ('CP-CHUNK', 'in', '[2,"new","Heartbeat",{}]', now() - interval '1 day')`,
    );
    const deletes: string[] = [];
    const writer = new MessageLogWriter(
      hookedDataSource((sql) => {
        if (sql.trimStart().startsWith('DELETE')) deletes.push(sql);
      }),
      { retentionDays: 7, retentionChunk: 10 },
    );
    expect(await writer.sweep()).toBe(25);
    // 10 + 10 + 5: the short last chunk ends the loop.
    expect(deletes).toHaveLength(3);
    expect(deletes[0]).toMatch(/LIMIT \$2/);
    expect(await h.query(`SELECT frame FROM ocpp_message_log WHERE charge_point_id = 'CP-CHUNK'`)).toEqual([
      { frame: '[2,"new","Heartbeat",{}]' },
    ]);
  });

  it('writes a batch again after a failed attempt (the connection was lost), and loses nothing', async () => {
    let failures = 1;
    const retries: number[] = [];
    const drops: [MessageLogDropReason, number][] = [];
    const writer = new MessageLogWriter(
      hookedDataSource((sql) => {
        if (sql.includes('INSERT INTO ocpp_message_log') && failures-- > 0)
          throw new Error('Connection terminated unexpectedly');
      }),
      {
        batchSize: 1000,
        flushIntervalMs: 10_000,
        retryDelayMs: 20,
        onRetry: (attempt) => retries.push(attempt),
        onDrop: (reason, frames) => drops.push([reason, frames]),
      },
    );
    for (let i = 0; i < 5; i++) writer.record('CP-RETRY', 'in', `[2,"r${i}","Heartbeat",{}]`);
    await writer.flush();
    expect(retries).toEqual([2]);
    expect(drops).toEqual([]);
    expect(writer.written).toBe(5);
    const [{ n }] = await h.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ocpp_message_log WHERE charge_point_id = 'CP-RETRY'`,
    );
    expect(n).toBe(5);
  });

  it('drops (and counts) a batch only after every attempt failed, backing off between them', async () => {
    const attemptsAt: number[] = [];
    const drops: [MessageLogDropReason, number][] = [];
    const errors: unknown[] = [];
    const writer = new MessageLogWriter(
      hookedDataSource((sql) => {
        if (!sql.includes('INSERT INTO ocpp_message_log')) return;
        attemptsAt.push(Date.now());
        throw new Error('database is down');
      }),
      {
        batchSize: 1000,
        flushIntervalMs: 10_000,
        writeAttempts: 3,
        retryDelayMs: 50,
        onError: (error) => errors.push(error),
        onDrop: (reason, frames) => drops.push([reason, frames]),
      },
    );
    for (let i = 0; i < 4; i++) writer.record('CP-DOWN', 'in', `[2,"d${i}","Heartbeat",{}]`);
    await writer.flush();
    expect(attemptsAt).toHaveLength(3);
    expect(attemptsAt[1] - attemptsAt[0]).toBeGreaterThanOrEqual(45);
    expect(attemptsAt[2] - attemptsAt[1]).toBeGreaterThanOrEqual(95); // doubled
    expect(errors).toHaveLength(3);
    expect(drops).toEqual([['write_failed', 4]]);
    expect(writer.dropped).toBe(4);
    expect(writer.written).toBe(0);
  });

  it('writes in batches and drops (and counts) frames beyond its buffer instead of blocking', async () => {
    const drops: MessageLogDropReason[] = [];
    const writer = new MessageLogWriter(h.db.dataSource, {
      maxBuffered: 100,
      batchSize: 1000,
      flushIntervalMs: 10_000,
      onDrop: (reason) => drops.push(reason),
    });
    for (let i = 0; i < 150; i++) writer.record('CP-BURST', 'in', `[2,"m${i}","Heartbeat",{}]`);
    expect(writer.dropped).toBe(50);
    expect(drops).toHaveLength(50);
    expect(new Set(drops)).toEqual(new Set(['buffer_full']));
    await writer.flush();
    expect(writer.written).toBe(100);
    const [{ n }] = await h.query<{ n: string }>(
      `SELECT count(*) AS n FROM ocpp_message_log WHERE charge_point_id = 'CP-BURST'`,
    );
    expect(Number(n)).toBe(100);
  });
});
