import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reservations are read from the gateway's command journal (ReserveNow / CancelReservation and what the
 * pile answered) and the settlement's record of started sessions: sessions keep the reservation they
 * consumed, and the journal gets an index for reading reservations by pile and reservation id.
 */
export class Reservations1763890000100 implements MigrationInterface {
  name = 'Reservations1763890000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing_session ADD COLUMN reservation_id integer`);
    await q.query(
      `CREATE INDEX billing_session_reservation_idx ON billing_session (charge_point_id, reservation_id)
        WHERE reservation_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX pile_command_reservation_idx ON pile_command (charge_point_id, (params->>'reservationId'), requested_at)
        WHERE action IN ('ReserveNow', 'CancelReservation')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX pile_command_reservation_idx`);
    await q.query(`DROP INDEX billing_session_reservation_idx`);
    await q.query(`ALTER TABLE billing_session DROP COLUMN reservation_id`);
  }
}
