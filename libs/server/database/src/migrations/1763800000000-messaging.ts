import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Transactional outbox and the processed-events record of idempotent consumers. */
export class Messaging1763800000000 implements MigrationInterface {
  name = 'Messaging1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_event (
        id             bigserial PRIMARY KEY,
        event_id       uuid        NOT NULL UNIQUE,
        topic          text        NOT NULL,
        key            text        NOT NULL,
        type           text        NOT NULL,
        version        integer     NOT NULL,
        occurred_at    timestamptz NOT NULL,
        correlation_id text        NOT NULL,
        payload        jsonb       NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now(),
        published_at   timestamptz
      )`);
    await q.query(
      `CREATE INDEX outbox_event_unpublished_idx ON outbox_event (id) WHERE published_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX outbox_event_published_at_idx ON outbox_event (published_at) WHERE published_at IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE processed_event (
        consumer_group text        NOT NULL,
        event_id       text        NOT NULL,
        processed_at   timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer_group, event_id)
      )`);
    await q.query(`CREATE INDEX processed_event_processed_at_idx ON processed_event (processed_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE processed_event`);
    await q.query(`DROP TABLE outbox_event`);
  }
}
