import { defineEvent } from '@voltdepot/shared-events';
import { envelopesOutboxInsert, writtenRowsOutboxInsert } from './outbox-insert';

type Reading = { meterId: string; id: number; valueWh: number };
const ReadingRecorded = defineEvent<Reading>()('readings', 'reading.recorded', 3);

describe('writtenRowsOutboxInsert', () => {
  const insert = writtenRowsOutboxInsert(ReadingRecorded, {
    param: 4,
    written: 'inserted',
    completion: { id: 'w.id' },
  });

  it('takes the events as one JSON parameter, then the definition’s topic, type and version', () => {
    const [events, ...rest] = insert.values([
      {
        i: 0,
        key: 'M-1',
        correlationId: 'c-1',
        occurredAt: '2026-06-01T08:00:00.000Z',
        payload: { meterId: 'M-1', valueWh: 5 },
      },
      { i: 1, key: 'M-2', correlationId: 'c-2', payload: { meterId: 'M-2', valueWh: 7 } },
    ]);
    expect(rest).toEqual(['readings', 'reading.recorded', 3]);
    const parsed = JSON.parse(events as string) as Record<string, unknown>[];
    expect(parsed).toEqual([
      {
        i: 0,
        event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        key: 'M-1',
        occurred_at: '2026-06-01T08:00:00.000Z',
        correlation_id: 'c-1',
        payload: { meterId: 'M-1', valueWh: 5 },
      },
      {
        i: 1,
        event_id: expect.any(String),
        key: 'M-2',
        correlation_id: 'c-2',
        payload: { meterId: 'M-2', valueWh: 7 },
      },
    ]);
    expect(parsed[0]['event_id']).not.toBe(parsed[1]['event_id']);
  });

  it('reads the events from its parameter and adds the completed fields from the written row, in call order', () => {
    expect(insert.ctes).toContain('jsonb_to_recordset($4::jsonb)');
    expect(insert.ctes).toContain(
      "SELECT e.event_id, $5::text, e.key, $6::text, $7::int, e.occurred_at, e.correlation_id, e.payload || jsonb_build_object('id', w.id)",
    );
    expect(insert.ctes).toContain('FROM inserted w JOIN events e USING (i)');
    expect(insert.ctes).toMatch(/ORDER BY w\.i\s+ON CONFLICT \(event_id\) DO NOTHING/);
  });

  it('makes one event of all the rows of a call when the statement gives its time', () => {
    const grouped = writtenRowsOutboxInsert(ReadingRecorded, {
      param: 2,
      written: 'rows',
      completion: { id: 'min(w.id)', valueWh: 'sum(w.value)' },
      occurredAt: 'min(w.at)',
    });
    expect(grouped.ctes).toContain(
      "e.key, $4::text, $5::int, min(w.at), e.correlation_id, e.payload || jsonb_build_object('id', min(w.id), 'valueWh', sum(w.value))",
    );
    expect(grouped.ctes).toMatch(
      /GROUP BY e\.i, e\.event_id, e\.key, e\.correlation_id, e\.payload\s+ORDER BY e\.i/,
    );
  });
});

describe('writtenRowsOutboxInsert, for optional fields and several events per call', () => {
  type Closed = { meterId: string; id: number; lastWh?: number };
  const ReadingClosed = defineEvent<Closed>()('readings', 'reading.closed', 1);

  it('leaves an optional completed field out where its SQL is NULL, the others as they are', () => {
    const insert = writtenRowsOutboxInsert(ReadingClosed, {
      param: 1,
      written: 'closed',
      completion: { id: 'w.id', lastWh: 'w.last' },
      optional: ['lastWh'],
    });
    expect(insert.ctes).toContain(
      "e.payload || jsonb_build_object('id', w.id) || jsonb_strip_nulls(jsonb_build_object('lastWh', w.last))",
    );
  });

  it('names its CTEs after `name` and derives one event id per row with `eachRow`', () => {
    const insert = writtenRowsOutboxInsert(ReadingClosed, {
      param: 3,
      written: 'closed',
      completion: { id: 'w.id' },
      eachRow: 'w.id',
      name: 'closing',
    });
    expect(insert.ctes).toMatch(/^closing_events AS \(/);
    expect(insert.ctes).toContain('), closing_outbox AS (');
    expect(insert.ctes).toContain('FROM closed w JOIN closing_events e USING (i)');
    expect(insert.ctes).toContain("SELECT md5(e.event_id::text || '/' || (w.id)::text)::uuid, $4::text");
  });

  it('refuses one event per call and per row at once', () => {
    expect(() =>
      writtenRowsOutboxInsert(ReadingClosed, {
        param: 1,
        written: 'w',
        occurredAt: 'min(w.at)',
        eachRow: 'w.id',
      }),
    ).toThrow('not both');
  });
});

describe('envelopesOutboxInsert', () => {
  it('writes whole envelopes of any events from one JSON parameter', () => {
    const insert = envelopesOutboxInsert(1);
    expect(insert.sql).toContain('jsonb_to_recordset($1::jsonb)');
    expect(insert.sql).toContain('ON CONFLICT (event_id) DO NOTHING');
    expect(insert.value([])).toBe('[]');
  });
});
