import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A charging card names the bus it charges (`charging_card.vehicle_id`): depots issue one card per bus.
 * Until now the link was only text (the card's cardholder or description naming the bus's plate), so the
 * existing cards take the one vehicle whose plate their text names; a card naming no plate, or several,
 * stays unlinked (live monitoring keeps the text rule for unlinked cards). Deleting a vehicle unlinks its
 * cards.
 */
export class CardVehicle1763980000000 implements MigrationInterface {
  name = 'CardVehicle1763980000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE charging_card ADD COLUMN vehicle_id integer
         CONSTRAINT charging_card_vehicle_fk REFERENCES vehicle (id) ON DELETE SET NULL`,
    );
    await q.query(`CREATE INDEX charging_card_vehicle_idx ON charging_card (vehicle_id)`);
    await q.query(`
      UPDATE charging_card c SET vehicle_id = named.vehicle_id
        FROM (SELECT c2.id AS card_id, min(v.id) AS vehicle_id
                FROM charging_card c2
                JOIN vehicle v ON v.plate <> ''
                 AND (strpos(c2.cardholder, v.plate) > 0 OR strpos(coalesce(c2.description, ''), v.plate) > 0)
               GROUP BY c2.id
              HAVING count(*) = 1) named
       WHERE c.id = named.card_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Drops its index and foreign key with it.
    await q.query(`ALTER TABLE charging_card DROP COLUMN vehicle_id`);
  }
}
