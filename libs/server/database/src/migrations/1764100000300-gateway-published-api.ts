import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the OCPP gateway publishes for the other areas (docs/decisions/0001-table-ownership.md).
 *
 * Views to read: the commands sent to piles (billing's reservations), the gateway's registry state of a
 * charge point, and the handshakes of unknown charge points (the assets' unknown-pile list).
 *
 * Functions to change the registry and the id-tag read model: the assets area keeps them in step with
 * hosts and cards, in the same transaction as its own write (a host and its right to connect change
 * together), without naming the gateway's tables. The gateway's cache still sees every change through
 * pile_registry's updated_at trigger.
 */
export class GatewayPublishedApi1764100000300 implements MigrationInterface {
  name = 'GatewayPublishedApi1764100000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE VIEW gateway_pile_command_v AS
        SELECT id, charge_point_id, action, params, status, response, requested_at, completed_at
          FROM pile_command`);
    await q.query(`
      CREATE VIEW gateway_pile_registry_v AS SELECT charge_point_id, state, updated_at FROM pile_registry`);
    await q.query(`
      CREATE VIEW gateway_unknown_pile_attempt_v AS
        SELECT charge_point_id, remote_address, attempts, first_seen_at, last_seen_at FROM unknown_pile_attempt`);

    await q.query(`
      CREATE FUNCTION gateway_register_pile(charge_point_id text, state text, password_hash text)
        RETURNS void LANGUAGE sql AS $$
          INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, $2, $3)
          ON CONFLICT (charge_point_id) DO UPDATE SET state = EXCLUDED.state, password_hash = EXCLUDED.password_hash
        $$`);
    await q.query(`
      CREATE FUNCTION gateway_set_pile_state(charge_point_ids text[], state text)
        RETURNS void LANGUAGE sql AS $$
          UPDATE pile_registry SET state = $2 WHERE charge_point_id = ANY($1)
        $$`);
    // A retired pile stays as a disabled tombstone without a password: the gateway's cache sees updates
    // within its refresh interval, but deletions only on a full reload.
    await q.query(`
      CREATE FUNCTION gateway_retire_pile(charge_point_id text)
        RETURNS void LANGUAGE sql AS $$
          UPDATE pile_registry SET state = 'disabled', password_hash = NULL WHERE charge_point_id = $1
        $$`);
    await q.query(`
      CREATE FUNCTION gateway_forget_unknown_pile(charge_point_id text)
        RETURNS void LANGUAGE sql AS $$
          DELETE FROM unknown_pile_attempt WHERE charge_point_id = $1
        $$`);
    await q.query(`
      CREATE FUNCTION gateway_put_id_tag(id_tag text, status text, expiry_date timestamptz)
        RETURNS void LANGUAGE sql AS $$
          INSERT INTO id_tag (id_tag, status, expiry_date) VALUES ($1, $2, $3)
          ON CONFLICT (id_tag) DO UPDATE
            SET status = EXCLUDED.status, expiry_date = EXCLUDED.expiry_date, updated_at = now()
        $$`);
    await q.query(`
      CREATE FUNCTION gateway_remove_id_tag(id_tag text)
        RETURNS void LANGUAGE sql AS $$
          DELETE FROM id_tag WHERE id_tag = $1
        $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const fn of [
      'gateway_remove_id_tag(text)',
      'gateway_put_id_tag(text, text, timestamptz)',
      'gateway_forget_unknown_pile(text)',
      'gateway_retire_pile(text)',
      'gateway_set_pile_state(text[], text)',
      'gateway_register_pile(text, text, text)',
    ])
      await q.query(`DROP FUNCTION ${fn}`);
    for (const view of [
      'gateway_unknown_pile_attempt_v',
      'gateway_pile_registry_v',
      'gateway_pile_command_v',
    ])
      await q.query(`DROP VIEW ${view}`);
  }
}
