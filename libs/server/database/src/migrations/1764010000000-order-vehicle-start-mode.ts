import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A charging order keeps the bus it charged and the start mode of its pile as they were when it was
 * settled, so re-binding a card or re-configuring a pile later never changes old orders.
 *
 * - `vehicle_id` (deleting the vehicle unlinks it), `vehicle_plate`, `vehicle_vin`: the bus the order's
 *   card is bound to, else the one whose VIN, else plate, is the idTag. Orders settled before this
 *   migration take the bus the same rule finds now (what the order screens showed until now).
 * - `start_mode`: the spec's start type code (dictionary `start_type`: 0 until full, 1 by time,
 *   2 by percent, 3 by amount, 4 by energy). It held the never-written text 'card'; existing orders take
 *   their pile's configured start mode, else 0 (until full).
 */
export class OrderVehicleStartMode1764010000000 implements MigrationInterface {
  name = 'OrderVehicleStartMode1764010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE charging_order
        ADD COLUMN vehicle_id integer CONSTRAINT charging_order_vehicle_fk REFERENCES vehicle (id) ON DELETE SET NULL,
        ADD COLUMN vehicle_plate varchar(16),
        ADD COLUMN vehicle_vin varchar(17)`);
    await q.query(`CREATE INDEX charging_order_vehicle_idx ON charging_order (vehicle_id, stopped_at DESC)`);
    await q.query(`
      UPDATE charging_order o SET vehicle_id = m.vehicle_id, vehicle_plate = m.plate, vehicle_vin = m.vin
        FROM (SELECT o2.id AS order_id, v.id AS vehicle_id, v.plate, v.vin
                FROM charging_order o2
                LEFT JOIN charging_card c ON c.physical_number = o2.id_tag
                JOIN LATERAL (SELECT id, plate, vin FROM vehicle
                               WHERE id = c.vehicle_id OR vin = o2.id_tag OR plate = o2.id_tag
                               ORDER BY CASE WHEN id = c.vehicle_id THEN 0 WHEN vin = o2.id_tag THEN 1 ELSE 2 END, id
                               LIMIT 1) v ON true) m
       WHERE o.id = m.order_id`);

    await q.query(`ALTER TABLE charging_order ALTER COLUMN start_mode DROP DEFAULT`);
    await q.query(`ALTER TABLE charging_order ALTER COLUMN start_mode TYPE smallint USING 0`);
    await q.query(`
      UPDATE charging_order o SET start_mode = p.start_mode
        FROM charging_pile p
       WHERE p.charge_point_id = o.charge_point_id AND p.start_mode IS NOT NULL`);
    await q.query(`
      ALTER TABLE charging_order
        ALTER COLUMN start_mode SET DEFAULT 0,
        ADD CONSTRAINT charging_order_start_mode_ck CHECK (start_mode BETWEEN 0 AND 4)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charging_order DROP CONSTRAINT charging_order_start_mode_ck`);
    await q.query(`ALTER TABLE charging_order ALTER COLUMN start_mode DROP DEFAULT`);
    await q.query(`ALTER TABLE charging_order ALTER COLUMN start_mode TYPE varchar(16) USING 'card'`);
    await q.query(`ALTER TABLE charging_order ALTER COLUMN start_mode SET DEFAULT 'card'`);
    // Drops its index and foreign key with it.
    await q.query(
      `ALTER TABLE charging_order DROP COLUMN vehicle_id, DROP COLUMN vehicle_plate, DROP COLUMN vehicle_vin`,
    );
  }
}
