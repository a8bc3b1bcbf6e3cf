import { OrderVehicleStartMode1764010000000 } from './1764010000000-order-vehicle-start-mode';
import { migratedDatabase, type MigratedDatabase } from './fixtures/migrated-database';

// Orders settled before the vehicle and start mode were kept take them by the rule the screens used.
describe('charging_order.vehicle_id and start_mode (real PostgreSQL, all migrations)', () => {
  const migration = new OrderVehicleStartMode1764010000000();
  let db: MigratedDatabase;
  const q = (sql: string, params?: unknown[]) => db.q(sql, params);

  beforeAll(async () => {
    db = await migratedDatabase('order-vehicle-test');
  }, 60_000);

  afterAll(() => db?.close());

  it('backfills the bus (card, else VIN, else plate) and the pile start mode (else 0) of existing orders', async () => {
    await migration.down(db.runner);
    const [org] = await q(`SELECT id FROM sys_organization WHERE code = 'ROOT'`);
    const [maker] = await q(
      `INSERT INTO manufacturer (name, type, contact_name, contact_number) VALUES ('Maker', 'car', 'Li', '1') RETURNING id`,
    );
    const vehicle = async (plate: string, vin: string) =>
      Number(
        (
          await q(
            `INSERT INTO vehicle (organization_id, vin, plate, manufacturer_id) VALUES ($1, $2, $3, $4) RETURNING id`,
            [org.id, vin, plate, maker.id],
          )
        )[0].id,
      );
    const bound = await vehicle('皖A·D101', 'LVDTEST0000000001');
    const byVin = await vehicle('皖A·D202', 'LVDTEST0000000002');
    // A bus whose plate is another bus's card number: the card's binding wins.
    await vehicle('CARD1', 'LVDTEST0000000003');
    await q(
      `INSERT INTO charging_card (organization_id, physical_number, type, self_number, cardholder, status, vehicle_id)
       VALUES ($1, 'CARD1', 3, 'S1', 'Li', 'normal', $2), ($1, 'CARD2', 3, 'S2', 'Li', 'normal', NULL)`,
      [org.id, bound],
    );
    await q(
      `INSERT INTO charging_pile (organization_id, name, number, charge_point_id, device_status, protocol_version, start_mode)
       VALUES ($1, 'P1', 'P1', 'CP-MODE', 50, 'ocpp1.6', 3), ($1, 'P2', 'P2', 'CP-NOMODE', 50, 'ocpp1.6', NULL)`,
      [org.id],
    );
    const order = async (cp: string, tx: number, idTag: string) =>
      q(
        `INSERT INTO charging_order (order_no, charge_point_id, connector_id, transaction_id, id_tag, stopped_at,
           meter_stop_wh, end_reason, stop_kind, pay_status)
         VALUES ($1, $2, 1, $3, $4, now(), 1000, 'Local', 'normal', 0)`,
        [`CO-${cp}-${tx}`, cp, tx, idTag],
      );
    await order('CP-MODE', 1, 'CARD1');
    await order('CP-MODE', 2, 'LVDTEST0000000002');
    await order('CP-NOMODE', 3, '皖A·D202');
    await order('CP-NOMODE', 4, 'CARD2');
    await order('CP-UNKNOWN', 5, 'NOBODY');
    expect((await q(`SELECT DISTINCT start_mode FROM charging_order`)).map((r) => r.start_mode)).toEqual([
      'card',
    ]);

    await migration.up(db.runner);
    const rows = await q(
      `SELECT transaction_id, vehicle_id, vehicle_plate, vehicle_vin, start_mode FROM charging_order
        ORDER BY transaction_id`,
    );
    expect(rows).toEqual([
      {
        transaction_id: 1,
        vehicle_id: bound,
        vehicle_plate: '皖A·D101',
        vehicle_vin: 'LVDTEST0000000001',
        start_mode: 3,
      },
      {
        transaction_id: 2,
        vehicle_id: byVin,
        vehicle_plate: '皖A·D202',
        vehicle_vin: 'LVDTEST0000000002',
        start_mode: 3,
      },
      {
        transaction_id: 3,
        vehicle_id: byVin,
        vehicle_plate: '皖A·D202',
        vehicle_vin: 'LVDTEST0000000002',
        start_mode: 0,
      },
      { transaction_id: 4, vehicle_id: null, vehicle_plate: null, vehicle_vin: null, start_mode: 0 },
      { transaction_id: 5, vehicle_id: null, vehicle_plate: null, vehicle_vin: null, start_mode: 0 },
    ]);
    await expect(q(`UPDATE charging_order SET start_mode = 5 WHERE transaction_id = 1`)).rejects.toThrow(
      /charging_order_start_mode_ck/,
    );
  });
});
