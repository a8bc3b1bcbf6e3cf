import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a connector's current error began. The gateway raises a pile error once, when a connector's error
 * code changes, and announces its end with the time it began; repeats of the same error (a pile resends
 * every status after a reconnect) keep the original time. Errors stored before this migration are taken
 * to have begun at their last status.
 */
export class ConnectorErrorSince1764070000000 implements MigrationInterface {
  name = 'ConnectorErrorSince1764070000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connector_status ADD COLUMN error_since timestamptz`);
    await q.query(`UPDATE connector_status SET error_since = status_at WHERE error_code <> 'NoError'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connector_status DROP COLUMN error_since`);
  }
}
