import { randomUUID } from 'node:crypto';
import type { EventDefinition, EventEnvelope } from '@voltdepot/shared-events';

/**
 * The one way events enter the outbox: every INSERT into `outbox_event` is built here, by `addToOutbox`
 * and by statements that write rows and announce them in the same statement (the OCPP gateway's batch
 * writers). A re-added event id is a no-op. Events travel as one JSON parameter: node-postgres would
 * escape each payload into an array literal character by character; JSON.stringify is native and
 * PostgreSQL parses the batch in C.
 */

/** The SQL giving each outbox column, over the insert's FROM clause. */
type OutboxColumns = {
  eventId: string;
  topic: string;
  key: string;
  type: string;
  version: string;
  occurredAt: string;
  correlationId: string;
  payload: string;
};

function outboxInsert(columns: OutboxColumns, from: string, tail: string): string {
  const { eventId, topic, key, type, version, occurredAt, correlationId, payload } = columns;
  return `INSERT INTO outbox_event (event_id, topic, key, type, version, occurred_at, correlation_id, payload)
    SELECT ${eventId}, ${topic}, ${key}, ${type}, ${version}, ${occurredAt}, ${correlationId}, ${payload}
      FROM ${from}${tail}
    ON CONFLICT (event_id) DO NOTHING`;
}

/**
 * An INSERT of whole envelopes, of any events, given as the JSON parameter `$param`: `sql` and, for that
 * parameter, `value(envelopes)`.
 */
export function envelopesOutboxInsert(param: number): {
  sql: string;
  value(envelopes: readonly EventEnvelope[]): string;
} {
  return {
    sql: outboxInsert(
      {
        eventId: 'r."eventId"',
        topic: 'r.topic',
        key: 'r.key',
        type: 'r.type',
        version: 'r.version',
        occurredAt: 'r."occurredAt"',
        correlationId: 'r."correlationId"',
        payload: 'r.payload',
      },
      `jsonb_to_recordset($${param}::jsonb)
         AS r("eventId" uuid, topic text, key text, type text, version int, "occurredAt" timestamptz,
              "correlationId" text, payload jsonb)`,
      '',
    ),
    value: (envelopes) => JSON.stringify(envelopes),
  };
}

/**
 * One event of a statement that announces the rows it writes: `i` the index of the call (or message) it
 * belongs to, which the written rows carry too; `payload` the part of the payload known before the
 * statement runs. `occurredAt` may be left to the statement (see WrittenRowsAnnouncement's `occurredAt`).
 */
export type AnnouncedEvent<Head> = {
  i: number;
  key: string;
  correlationId: string;
  occurredAt?: string;
  payload: Head;
};

/**
 * The payload fields only the statement knows (an id PostgreSQL assigns, values of the stored row, an
 * aggregate over the rows written), each as SQL over the written row `w` (and the event `e`).
 */
export type PayloadCompletion<Payload, K extends keyof Payload> = { readonly [F in K]-?: string };

export type WrittenRowsAnnouncement<Payload, K extends keyof Payload> = {
  /** The JSON parameter holding the events; the next three hold the definition's topic, type and version. */
  param: number;
  /** The statement's CTE of rows written, with the index `i` of the call each row belongs to. */
  written: string;
  /** The payload fields the statement adds to the events' own (see PayloadCompletion). */
  completion?: PayloadCompletion<Payload, K>;
  /**
   * Completed fields the payload type has as optional: where their SQL is NULL the field is left out
   * rather than set to null (their values are stripped of null fields, nested ones too).
   */
  optional?: readonly NoInfer<K>[];
  /** When several rows make one event: each event's time as an aggregate over its rows `w`. */
  occurredAt?: string;
  /**
   * When each of several rows of a call makes an event of its own: SQL over `w` telling the rows of a
   * call apart. Each event's id is derived from the call's and that value (so still one id per event).
   */
  eachRow?: string;
  /**
   * Prefix of the closing CTEs' names (`<name>_events`, `<name>_outbox`; default `events`, `outbox`),
   * for a statement that announces two kinds of rows.
   */
  name?: string;
};

/**
 * For a statement that writes rows and announces them in one go (one round trip, atomic without a
 * transaction around it), the closing CTEs of its WITH clause (`ctes`): `events`, the events of one
 * definition read from the JSON parameter, and `outbox`, adding to the outbox the event of each call that
 * has rows in `written` (matched on `i`), in call order, with its payload completed by `completion`. With
 * `occurredAt`, the rows of a call make one event together (grouped by call). `values(events)` gives the
 * statement's parameters from `param` on: the events, then the definition's topic, type and version.
 * The event's fields in TypeScript are its payload without the completed ones, so a payload is whole only
 * when both halves together make the definition's type.
 */
export function writtenRowsOutboxInsert<Payload, K extends keyof Payload = never>(
  definition: EventDefinition<string, Payload>,
  announcement: WrittenRowsAnnouncement<Payload, K>,
): {
  ctes: string;
  values(events: readonly AnnouncedEvent<Omit<Payload, K>>[]): unknown[];
} {
  const { param, written, completion, optional = [], occurredAt, eachRow, name } = announcement;
  if (occurredAt !== undefined && eachRow !== undefined)
    throw new Error('an announcement makes one event per call (occurredAt) or per row (eachRow), not both');
  const completed = Object.entries<string>(completion ?? {});
  const fields = (list: [string, string][]) => list.map(([field, sql]) => `'${field}', ${sql}`).join(', ');
  const required = completed.filter(([field]) => !optional.includes(field as K));
  const present = completed.filter(([field]) => optional.includes(field as K));
  const payload = [
    'e.payload',
    ...(required.length ? [`jsonb_build_object(${fields(required)})`] : []),
    ...(present.length ? [`jsonb_strip_nulls(jsonb_build_object(${fields(present)}))`] : []),
  ].join(' || ');
  const grouped = occurredAt !== undefined;
  const events = name ? `${name}_events` : 'events';
  const outbox = name ? `${name}_outbox` : 'outbox';
  const insert = outboxInsert(
    {
      eventId:
        eachRow === undefined ? 'e.event_id' : `md5(e.event_id::text || '/' || (${eachRow})::text)::uuid`,
      topic: `$${param + 1}::text`,
      key: 'e.key',
      type: `$${param + 2}::text`,
      version: `$${param + 3}::int`,
      occurredAt: occurredAt ?? 'e.occurred_at',
      correlationId: 'e.correlation_id',
      payload,
    },
    `${written} w JOIN ${events} e USING (i)`,
    grouped
      ? `
     GROUP BY e.i, e.event_id, e.key, e.correlation_id, e.payload
     ORDER BY e.i`
      : `
     ORDER BY w.i`,
  );
  return {
    ctes: `${events} AS (
    SELECT * FROM jsonb_to_recordset($${param}::jsonb)
      AS e(i int, event_id uuid, key text, occurred_at timestamptz, correlation_id text, payload jsonb)
  ), ${outbox} AS (
    ${insert}
  )`,
    values: (events) => [
      JSON.stringify(
        events.map((event) => ({
          i: event.i,
          event_id: randomUUID(),
          key: event.key,
          occurred_at: event.occurredAt,
          correlation_id: event.correlationId,
          payload: event.payload,
        })),
      ),
      definition.topic,
      definition.type,
      definition.version,
    ],
  };
}
