import type { MigrationInterface, QueryRunner } from 'typeorm';

const TIMESTAMPS = `created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now()`;
const ORGANIZATION = `organization_id bigint NOT NULL REFERENCES sys_organization (id)`;

/** Enumerations of the new grids that the seeded dictionaries do not have yet. */
const DICTIONARIES: [code: string, name: string, items: [value: string, name: string][]][] = [
  [
    'protocol_type',
    'Protocol type',
    [
      ['ocpp1.6', 'OCPP 1.6J'],
      ['ocpp2.0.1', 'OCPP 2.0.1'],
      ['gbt27930', 'GB/T 27930'],
      ['other', 'Other'],
    ],
  ],
  [
    'label_type',
    'Station label type',
    [
      ['payment', 'Payment'],
      ['nationalStandard', 'National standard'],
      ['chargingType', 'Charging type'],
      ['stationType', 'Station type'],
    ],
  ],
];

/**
 * The rest of business-areas §3 basic data: parking spaces, cameras, alarm codes, stop-charging codes,
 * maintenance personnel, peak charging time and station pictures; the station, host, gun and vehicle
 * fields the first assets migration left out (construction site, parking lot, service fee, flags; start
 * mode, charging type, map coordinates, feeding box transformer; terminal name, ground lock, parking
 * place type; vehicle type), and the protocol-type and label-type dictionaries the screens choose from.
 * New station/host/gun/vehicle columns are nullable or defaulted, so existing rows and callers stay valid.
 */
export class AssetsBasicData1763930000000 implements MigrationInterface {
  name = 'AssetsBasicData1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE station
        ADD COLUMN construction_site       varchar(128),
        ADD COLUMN area_sqm                integer CHECK (area_sqm >= 0),
        ADD COLUMN parking_owner           varchar(32),
        ADD COLUMN parking_manager         varchar(32),
        ADD COLUMN parking_floor           varchar(16),
        ADD COLUMN service_fee_free        boolean NOT NULL DEFAULT false,
        ADD COLUMN service_fee_fen         integer CHECK (service_fee_fen >= 0),
        ADD COLUMN service_fee_description varchar(255),
        ADD COLUMN occupation_fee_enabled  boolean NOT NULL DEFAULT false,
        ADD COLUMN operated_externally     boolean NOT NULL DEFAULT false,
        ADD COLUMN shown_on_mobile         boolean NOT NULL DEFAULT true`);
    // Pictures are kept in the database: a handful of JPG/PNG of at most 2 MB per station.
    await q.query(`
      CREATE TABLE station_picture (
        id           serial PRIMARY KEY,
        station_id   integer     NOT NULL REFERENCES station (id) ON DELETE CASCADE,
        content_type varchar(16) NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
        file_name    varchar(128) NOT NULL,
        size_bytes   integer     NOT NULL CHECK (size_bytes BETWEEN 1 AND 2097152),
        data         bytea       NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX station_picture_station_idx ON station_picture (station_id)`);

    await q.query(`
      ALTER TABLE charging_pile
        ADD COLUMN charging_type  smallint CHECK (charging_type BETWEEN 0 AND 8 OR charging_type = 255),
        ADD COLUMN start_mode     smallint CHECK (start_mode BETWEEN 0 AND 4),
        ADD COLUMN coordinate_x   numeric(9, 2),
        ADD COLUMN coordinate_y   numeric(9, 2),
        ADD COLUMN transformer_id integer REFERENCES box_transformer (id),
        ADD COLUMN delivered_at   timestamptz`);
    await q.query(`CREATE INDEX charging_pile_transformer_idx ON charging_pile (transformer_id)`);
    await q.query(`
      ALTER TABLE charging_gun
        ADD COLUMN terminal_name      varchar(32),
        ADD COLUMN ground_lock_status smallint CHECK (ground_lock_status IN (0, 10, 50)),
        ADD COLUMN parking_place_type varchar(8) CHECK (parking_place_type IN ('bus', 'social'))`);
    await q.query(`ALTER TABLE vehicle ADD COLUMN vehicle_type varchar(32)`);

    await q.query(`
      CREATE TABLE parking_space (
        id                    serial PRIMARY KEY,
        ${ORGANIZATION},
        station_id            integer     NOT NULL REFERENCES station (id),
        gun_id                integer     REFERENCES charging_gun (id) ON DELETE SET NULL,
        number                varchar(16) NOT NULL,
        type                  varchar(8)  NOT NULL CHECK (type IN ('bus', 'social')),
        length_m              numeric(6, 2) CHECK (length_m > 0),
        transverse_distance_m numeric(6, 2) CHECK (transverse_distance_m >= 0),
        vertical_distance_m   numeric(6, 2) CHECK (vertical_distance_m >= 0),
        ${TIMESTAMPS},
        CONSTRAINT parking_space_number_uq UNIQUE (station_id, number)
      )`);
    await q.query(`CREATE INDEX parking_space_gun_idx ON parking_space (gun_id)`);
    await q.query(`
      CREATE TABLE camera (
        id               serial PRIMARY KEY,
        ${ORGANIZATION},
        station_id       integer      NOT NULL REFERENCES station (id),
        -- The camera's id on the video platform (index code of the camera tree).
        code             varchar(64)  NOT NULL,
        name             varchar(32)  NOT NULL,
        external_address varchar(255) NOT NULL,
        is_show          boolean      NOT NULL DEFAULT true,
        ${TIMESTAMPS},
        CONSTRAINT camera_code_uq UNIQUE (code)
      )`);
    await q.query(`CREATE INDEX camera_station_idx ON camera (station_id)`);
    await q.query(`
      CREATE TABLE alarm_code (
        id            serial PRIMARY KEY,
        protocol_type varchar(16) NOT NULL,
        code          varchar(16) NOT NULL,
        name          varchar(32) NOT NULL,
        level         smallint    NOT NULL CHECK (level BETWEEN 0 AND 3),
        category      varchar(16) NOT NULL CHECK (category IN ('general', 'energyStorage', 'driveMotor', 'engine', 'other')),
        description   varchar(255),
        ${TIMESTAMPS},
        CONSTRAINT alarm_code_code_uq UNIQUE (protocol_type, code)
      )`);
    await q.query(`
      CREATE TABLE stop_code (
        id            serial PRIMARY KEY,
        protocol_type varchar(16) NOT NULL,
        code          varchar(16) NOT NULL,
        name          varchar(32) NOT NULL,
        -- Charging stopped normally (true) or abnormally (the stop notice's type).
        normal        boolean     NOT NULL,
        description   varchar(255),
        ${TIMESTAMPS},
        CONSTRAINT stop_code_code_uq UNIQUE (protocol_type, code)
      )`);
    await q.query(`
      CREATE TABLE maintenance_personnel (
        id         serial PRIMARY KEY,
        ${ORGANIZATION},
        number     varchar(16)  NOT NULL,
        name       varchar(32)  NOT NULL,
        phone      varchar(32)  NOT NULL,
        station_id integer      REFERENCES station (id),
        enabled    boolean      NOT NULL DEFAULT true,
        remark     varchar(255),
        ${TIMESTAMPS},
        CONSTRAINT maintenance_personnel_number_uq UNIQUE (number)
      )`);
    await q.query(
      `CREATE INDEX maintenance_personnel_organization_idx ON maintenance_personnel (organization_id)`,
    );
    await q.query(`
      CREATE TABLE peak_charging_time (
        id          serial PRIMARY KEY,
        ${ORGANIZATION},
        -- Null: every station of the organisation.
        station_id  integer     REFERENCES station (id) ON DELETE CASCADE,
        period_type varchar(12) NOT NULL CHECK (period_type IN ('valley', 'normal', 'peak', 'sharp', 'deepValley')),
        start_time  time        NOT NULL,
        end_time    time        NOT NULL,
        remark      varchar(255),
        ${TIMESTAMPS},
        CHECK (end_time > start_time)
      )`);
    await q.query(
      `CREATE INDEX peak_charging_time_scope_idx ON peak_charging_time (organization_id, station_id)`,
    );

    for (const [code, name, items] of DICTIONARIES) {
      const rows = (await q.query(
        `INSERT INTO sys_dict (kind, code, name, sort)
         SELECT 'type', $1, $2, coalesce(max(sort), 0) + 1 FROM sys_dict WHERE kind = 'type'
         RETURNING id`,
        [code, name],
      )) as { id: string }[];
      await q.query(
        `INSERT INTO sys_dict (parent_id, kind, code, name, value, sort)
         SELECT $1, 'item', v, n, v, s - 1 FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(v, n, s)`,
        [Number(rows[0].id), items.map(([v]) => v), items.map(([, n]) => n)],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const codes = DICTIONARIES.map(([code]) => code);
    await q.query(
      `DELETE FROM sys_dict WHERE parent_id IN (SELECT id FROM sys_dict WHERE kind = 'type' AND code = ANY($1::text[]))`,
      [codes],
    );
    await q.query(`DELETE FROM sys_dict WHERE kind = 'type' AND code = ANY($1::text[])`, [codes]);
    for (const table of [
      'peak_charging_time',
      'maintenance_personnel',
      'stop_code',
      'alarm_code',
      'camera',
      'parking_space',
      'station_picture',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
    await q.query(`ALTER TABLE vehicle DROP COLUMN vehicle_type`);
    await q.query(
      `ALTER TABLE charging_gun DROP COLUMN terminal_name, DROP COLUMN ground_lock_status, DROP COLUMN parking_place_type`,
    );
    await q.query(
      `ALTER TABLE charging_pile DROP COLUMN charging_type, DROP COLUMN start_mode, DROP COLUMN coordinate_x,
         DROP COLUMN coordinate_y, DROP COLUMN transformer_id, DROP COLUMN delivered_at`,
    );
    await q.query(
      `ALTER TABLE station DROP COLUMN construction_site, DROP COLUMN area_sqm, DROP COLUMN parking_owner,
         DROP COLUMN parking_manager, DROP COLUMN parking_floor, DROP COLUMN service_fee_free,
         DROP COLUMN service_fee_fen, DROP COLUMN service_fee_description, DROP COLUMN occupation_fee_enabled,
         DROP COLUMN operated_externally, DROP COLUMN shown_on_mobile`,
    );
  }
}
