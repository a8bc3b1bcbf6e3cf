import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the assets area publishes for the other areas to read (docs/decisions/0001-table-ownership.md):
 * stations (with their occupation-fee settings), hosts, guns, cards, vehicles (with the names of their
 * company, fleet and line) and alarm codes. Never the OCPP password hash. Projections of one table (the
 * vehicle's names by left joins on primary keys, which PostgreSQL drops when a query does not use them),
 * so a read through a view keeps the tables' indexes and plans.
 */
export class AssetsReadViews1764100000100 implements MigrationInterface {
  name = 'AssetsReadViews1764100000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE VIEW assets_station_v AS
        SELECT id, organization_id, number, name, address, longitude, latitude, status,
               fee_scope, free_parking_minutes, occupation_interval_minutes, occupation_unit_price_fen,
               capped_amount_fen, occupation_fee_enabled
          FROM station`);
    await q.query(`
      CREATE VIEW assets_pile_v AS
        SELECT id, organization_id, station_id, name, number, charge_point_id, device_status,
               protocol_version, start_mode
          FROM charging_pile`);
    await q.query(`CREATE VIEW assets_gun_v AS SELECT id, pile_id, name, channel_number FROM charging_gun`);
    await q.query(`
      CREATE VIEW assets_card_v AS
        SELECT id, organization_id, physical_number, self_number, cardholder, description, type, status,
               vehicle_id
          FROM charging_card`);
    await q.query(`
      CREATE VIEW assets_vehicle_v AS
        SELECT v.id, v.organization_id, v.vin, v.plate, v.self_number, v.battery_capacity_wh, v.operational,
               v.company_id, co.name AS company_name, v.fleet_id, f.name AS fleet_name,
               v.line_id, l.name AS line_name
          FROM vehicle v
          LEFT JOIN bus_company co ON co.id = v.company_id
          LEFT JOIN bus_fleet f ON f.id = v.fleet_id
          LEFT JOIN bus_line l ON l.id = v.line_id`);
    await q.query(`
      CREATE VIEW assets_alarm_code_v AS
        SELECT protocol_type, code, name, level, category, description FROM alarm_code`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const view of [
      'assets_alarm_code_v',
      'assets_vehicle_v',
      'assets_card_v',
      'assets_gun_v',
      'assets_pile_v',
      'assets_station_v',
    ])
      await q.query(`DROP VIEW ${view}`);
  }
}
