import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A vehicle's operational status (business-areas §4: operational or not). A bus in service that charges
 * at a pile is charging between runs (a driving charge); one out of service charges at the depot (a
 * parking charge). Existing vehicles start out of service, as the bus list has shown them so far.
 */
export class VehicleOperational1763990000000 implements MigrationInterface {
  name = 'VehicleOperational1763990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE vehicle ADD COLUMN operational boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE vehicle DROP COLUMN operational`);
  }
}
