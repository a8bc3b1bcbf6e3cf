import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pile passwords move from argon2id to a keyed hash (libs/server/pile-credentials): the gateway stores
 * a pile's password again in the new form at its next successful handshake, replacing the registry's
 * hash only if it is still the one it verified (so exactly one replica does it, and never over a
 * password the api set meanwhile), and remembers the hash it replaced in `password_rehashed_from`.
 *
 * The assets area keeps its own copy of the hash it wrote and registers it again whenever a pile is
 * saved. `gateway_register_pile` therefore keeps the re-stored hash when it is handed the hash it
 * replaced (the same password, in its older form), and every replica's gateway tells such a change
 * from a new password, so that neither re-registering nor re-storing closes the pile's connection.
 */
export class PilePasswordRehash1764150000000 implements MigrationInterface {
  name = 'PilePasswordRehash1764150000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE pile_registry ADD COLUMN password_rehashed_from text`);
    await q.query(`
      CREATE OR REPLACE FUNCTION gateway_register_pile(charge_point_id text, state text, password_hash text)
        RETURNS void LANGUAGE sql AS $$
          INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, $2, $3)
          ON CONFLICT (charge_point_id) DO UPDATE SET
            state = EXCLUDED.state,
            password_hash = CASE WHEN EXCLUDED.password_hash = pile_registry.password_rehashed_from
                                 THEN pile_registry.password_hash ELSE EXCLUDED.password_hash END,
            password_rehashed_from = CASE WHEN EXCLUDED.password_hash = pile_registry.password_rehashed_from
                                          THEN pile_registry.password_rehashed_from END
        $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION gateway_retire_pile(charge_point_id text)
        RETURNS void LANGUAGE sql AS $$
          UPDATE pile_registry SET state = 'disabled', password_hash = NULL, password_rehashed_from = NULL
           WHERE charge_point_id = $1
        $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION gateway_retire_pile(charge_point_id text)
        RETURNS void LANGUAGE sql AS $$
          UPDATE pile_registry SET state = 'disabled', password_hash = NULL WHERE charge_point_id = $1
        $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION gateway_register_pile(charge_point_id text, state text, password_hash text)
        RETURNS void LANGUAGE sql AS $$
          INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, $2, $3)
          ON CONFLICT (charge_point_id) DO UPDATE SET state = EXCLUDED.state, password_hash = EXCLUDED.password_hash
        $$`);
    await q.query(`ALTER TABLE pile_registry DROP COLUMN password_rehashed_from`);
  }
}
