import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * IC cards reach the pile (issue #25, docs/ic-cards.md "The card at the pile"):
 *
 * - `ic_card_change_seq` orders the IC-card area's `iccard.card.changed` events (taken under the card's
 *   row lock, so per card it rises in commit order);
 * - `charging_card.ic_card_sequence`: the sequence of the IC-card event a basic-data card last took
 *   (null for a card kept by hand on the grid), so an older event never overwrites a newer state;
 * - the backfill: every IC card that exists now is announced once, through the outbox, as the area
 *   announces a change (the relay publishes it when the api starts; the assets consumer is idempotent).
 */
export class IcCardCardSync1764210000200 implements MigrationInterface {
  name = 'IcCardCardSync1764210000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE ic_card_change_seq AS bigint`);
    await q.query(`ALTER TABLE charging_card ADD COLUMN ic_card_sequence bigint`);
    await q.query(`
      INSERT INTO outbox_event (event_id, topic, key, type, version, occurred_at, correlation_id, payload)
      SELECT gen_random_uuid(), 'iccard.cards', c.card_no, 'iccard.card.changed', 1, now(),
             'migration:IcCardCardSync1764210000200',
             jsonb_build_object(
               'cardNo', c.card_no, 'cardType', c.card_type, 'status', c.status,
               'customerName', c.user_name, 'organizationId', c.organization_id,
               'sequence', nextval('ic_card_change_seq'),
               'changedAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        FROM (SELECT k.card_no, k.card_type, k.status, u.user_name, u.organization_id
                FROM ic_card k JOIN ic_customer u ON u.id = k.customer_id ORDER BY k.id) c`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charging_card DROP COLUMN ic_card_sequence`);
    await q.query(`DROP SEQUENCE ic_card_change_seq`);
  }
}
