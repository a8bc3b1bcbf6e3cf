import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Optional TOTP second factor per user: the (encrypted) secret and hashed one-time recovery codes. */
export class IdentityTotp1763820000100 implements MigrationInterface {
  name = 'IdentityTotp1763820000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sys_user
        ADD COLUMN totp_secret         text,
        ADD COLUMN totp_enabled        boolean NOT NULL DEFAULT false,
        ADD COLUMN totp_recovery_codes text[]  NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE sys_user DROP COLUMN totp_recovery_codes, DROP COLUMN totp_enabled, DROP COLUMN totp_secret`,
    );
  }
}
