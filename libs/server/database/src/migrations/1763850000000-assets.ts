import type { MigrationInterface, QueryRunner } from 'typeorm';

const TIMESTAMPS = `created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now()`;
const ORGANIZATION = `organization_id bigint NOT NULL REFERENCES sys_organization (id)`;

/**
 * Charging assets (business-areas §3): reference data (manufacturers, operators, regions, labels), the bus
 * company structure (companies, branches, fleets, lines), stations with labels and fee settings, charging
 * hosts (piles) and guns, box transformers, vehicles and charging cards. Rows an organisation owns carry
 * `organization_id` for data scope. Unique constraints are named: the api maps each to its message.
 * Piles and cards are mirrored into the gateway's `pile_registry` and `id_tag` by the api, in the same
 * transaction as the change.
 */
export class Assets1763850000000 implements MigrationInterface {
  name = 'Assets1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE manufacturer (
        id             serial PRIMARY KEY,
        name           varchar(32) NOT NULL,
        type           varchar(8)  NOT NULL CHECK (type IN ('pile', 'car')),
        contact_name   varchar(32) NOT NULL,
        contact_number varchar(32) NOT NULL,
        ${TIMESTAMPS},
        CONSTRAINT manufacturer_type_name_uq UNIQUE (type, name)
      )`);
    await q.query(`
      CREATE TABLE charging_operator (
        id                 serial PRIMARY KEY,
        number             varchar(16)  NOT NULL,
        name               varchar(32)  NOT NULL,
        contact_name       varchar(32)  NOT NULL,
        mobile_phone       varchar(32),
        fixed_phone        varchar(32)  NOT NULL,
        registered_address varchar(128) NOT NULL,
        credit_code        varchar(18)  NOT NULL,
        remark             varchar(255),
        ${TIMESTAMPS},
        CONSTRAINT charging_operator_number_uq UNIQUE (number),
        CONSTRAINT charging_operator_credit_code_uq UNIQUE (credit_code)
      )`);
    await q.query(`
      CREATE TABLE region (
        id        serial PRIMARY KEY,
        name      varchar(32) NOT NULL,
        area_code varchar(12) NOT NULL,
        province  varchar(32),
        city      varchar(32),
        district  varchar(32),
        ${TIMESTAMPS},
        CONSTRAINT region_area_code_uq UNIQUE (area_code)
      )`);
    await q.query(`
      CREATE TABLE asset_label (
        id   serial PRIMARY KEY,
        type varchar(24) NOT NULL CHECK (type IN ('payment', 'nationalStandard', 'chargingType', 'stationType')),
        name varchar(32) NOT NULL,
        ${TIMESTAMPS},
        CONSTRAINT asset_label_type_name_uq UNIQUE (type, name)
      )`);

    await q.query(`
      CREATE TABLE bus_company (
        id     serial PRIMARY KEY,
        ${ORGANIZATION},
        number varchar(16) NOT NULL,
        name   varchar(32) NOT NULL,
        ${TIMESTAMPS},
        CONSTRAINT bus_company_number_uq UNIQUE (number)
      )`);
    await q.query(`
      CREATE TABLE bus_branch (
        id         serial PRIMARY KEY,
        ${ORGANIZATION},
        company_id integer NOT NULL REFERENCES bus_company (id),
        number     varchar(16) NOT NULL,
        name       varchar(32) NOT NULL,
        ${TIMESTAMPS},
        CONSTRAINT bus_branch_number_uq UNIQUE (company_id, number)
      )`);
    await q.query(`
      CREATE TABLE bus_fleet (
        id         serial PRIMARY KEY,
        ${ORGANIZATION},
        company_id integer NOT NULL REFERENCES bus_company (id),
        branch_id  integer REFERENCES bus_branch (id),
        number     varchar(16) NOT NULL,
        name       varchar(32) NOT NULL,
        ${TIMESTAMPS},
        CONSTRAINT bus_fleet_number_uq UNIQUE (company_id, number)
      )`);
    await q.query(`CREATE INDEX bus_fleet_branch_idx ON bus_fleet (branch_id)`);
    await q.query(`
      CREATE TABLE bus_line (
        id       serial PRIMARY KEY,
        ${ORGANIZATION},
        fleet_id integer NOT NULL REFERENCES bus_fleet (id),
        number   varchar(16) NOT NULL,
        name     varchar(32) NOT NULL,
        ${TIMESTAMPS},
        CONSTRAINT bus_line_number_uq UNIQUE (fleet_id, number)
      )`);

    await q.query(`
      CREATE TABLE station (
        id                          serial PRIMARY KEY,
        ${ORGANIZATION},
        number                      varchar(16)  NOT NULL,
        name                        varchar(32)  NOT NULL,
        region_id                   integer      NOT NULL REFERENCES region (id),
        company_id                  integer      REFERENCES bus_company (id),
        operator_id                 integer      REFERENCES charging_operator (id),
        type                        smallint     NOT NULL CHECK (type IN (0, 1, 100, 101, 102, 103, 255)),
        status                      smallint     NOT NULL CHECK (status BETWEEN 0 AND 3),
        address                     varchar(128) NOT NULL,
        longitude                   numeric(9, 6) NOT NULL CHECK (longitude BETWEEN -180 AND 180),
        latitude                    numeric(8, 6) NOT NULL CHECK (latitude BETWEEN -90 AND 90),
        description                 varchar(255),
        responsible_phone           varchar(32),
        service_phone               varchar(32),
        parking_spaces              integer CHECK (parking_spaces >= 0),
        opening_time                time         NOT NULL,
        closing_time                time         NOT NULL,
        is_open                     boolean      NOT NULL,
        supports_reservation        boolean      NOT NULL,
        fee_scope                   varchar(8)   NOT NULL CHECK (fee_scope IN ('internal', 'external')),
        free_parking_minutes        integer      NOT NULL CHECK (free_parking_minutes >= 0),
        occupation_interval_minutes integer      NOT NULL CHECK (occupation_interval_minutes > 0),
        occupation_unit_price_fen   integer      NOT NULL CHECK (occupation_unit_price_fen >= 0),
        capped_amount_fen           integer      NOT NULL CHECK (capped_amount_fen >= 0),
        ${TIMESTAMPS},
        CONSTRAINT station_number_uq UNIQUE (number)
      )`);
    await q.query(`CREATE INDEX station_organization_idx ON station (organization_id)`);
    await q.query(`
      CREATE TABLE station_label (
        station_id integer NOT NULL REFERENCES station (id) ON DELETE CASCADE,
        label_id   integer NOT NULL REFERENCES asset_label (id),
        PRIMARY KEY (station_id, label_id)
      )`);
    await q.query(`CREATE INDEX station_label_label_idx ON station_label (label_id)`);

    await q.query(`
      CREATE TABLE charging_pile (
        id                   serial PRIMARY KEY,
        ${ORGANIZATION},
        station_id           integer     REFERENCES station (id),
        manufacturer_id      integer     REFERENCES manufacturer (id),
        name                 varchar(32) NOT NULL,
        number               varchar(16) NOT NULL,
        charge_point_id      varchar(48) NOT NULL,
        -- argon2id; mirrored into pile_registry.password_hash. Never returned by the api.
        ocpp_password_hash   text,
        -- Null only for a host registered from an unknown connection attempt and not yet described.
        type                 smallint    CHECK (type BETWEEN 0 AND 8 OR type = 255),
        max_power_w          integer     CHECK (max_power_w > 0),
        rated_power_w        integer     CHECK (rated_power_w > 0),
        voltage_v            integer,
        current_a            integer,
        device_status        smallint    NOT NULL CHECK (device_status IN (1, 5, 6, 50)),
        gun_count            smallint    CHECK (gun_count BETWEEN 1 AND 16),
        protocol_version     varchar(16) NOT NULL,
        national_standard    smallint    CHECK (national_standard IN (1, 2, 3, 255)),
        model                varchar(32),
        host_ip              varchar(45),
        sim_number           varchar(32),
        production_date      date,
        payment_mode         smallint    CHECK (payment_mode IN (0, 1)),
        supports_reservation boolean     NOT NULL DEFAULT false,
        external_id          varchar(64),
        ${TIMESTAMPS},
        CONSTRAINT charging_pile_number_uq UNIQUE (number),
        CONSTRAINT charging_pile_charge_point_id_uq UNIQUE (charge_point_id)
      )`);
    await q.query(`CREATE INDEX charging_pile_station_idx ON charging_pile (station_id)`);
    await q.query(`CREATE INDEX charging_pile_organization_idx ON charging_pile (organization_id)`);
    await q.query(`
      CREATE TABLE charging_gun (
        id              serial PRIMARY KEY,
        ${ORGANIZATION},
        pile_id         integer      NOT NULL REFERENCES charging_pile (id) ON DELETE CASCADE,
        name            varchar(32)  NOT NULL,
        channel_number  smallint     NOT NULL CHECK (channel_number BETWEEN 1 AND 16),
        qr_code         varchar(128) NOT NULL,
        connector_type  smallint     NOT NULL CHECK (connector_type BETWEEN 1 AND 5 OR connector_type = 255),
        max_voltage_v   integer,
        min_voltage_v   integer,
        rated_voltage_v integer,
        rated_current_a integer,
        rated_power_w   integer,
        bms_power       smallint CHECK (bms_power IN (1, 2, 3, 255)),
        ${TIMESTAMPS},
        CONSTRAINT charging_gun_channel_uq UNIQUE (pile_id, channel_number),
        CONSTRAINT charging_gun_qr_code_uq UNIQUE (qr_code)
      )`);
    await q.query(`
      CREATE TABLE box_transformer (
        id           serial PRIMARY KEY,
        ${ORGANIZATION},
        station_id   integer     NOT NULL REFERENCES station (id),
        name         varchar(32) NOT NULL,
        capacity_kva integer     CHECK (capacity_kva > 0),
        ip           varchar(45),
        type         varchar(32),
        ${TIMESTAMPS},
        CONSTRAINT box_transformer_name_uq UNIQUE (station_id, name)
      )`);

    await q.query(`
      CREATE TABLE vehicle (
        id                  serial PRIMARY KEY,
        ${ORGANIZATION},
        vin                 varchar(17) NOT NULL,
        plate               varchar(16) NOT NULL,
        self_number         varchar(16),
        manufacturer_id     integer     NOT NULL REFERENCES manufacturer (id),
        company_id          integer     REFERENCES bus_company (id),
        fleet_id            integer     REFERENCES bus_fleet (id),
        line_id             integer     REFERENCES bus_line (id),
        battery_capacity_wh integer     CHECK (battery_capacity_wh > 0),
        working_voltage_v   integer,
        working_current_a   integer,
        battery_pack_type   varchar(32),
        vehicle_model       varchar(32),
        day_charging        boolean     NOT NULL DEFAULT false,
        night_charging      boolean     NOT NULL DEFAULT true,
        daily_trips         integer     CHECK (daily_trips >= 0),
        supplementary_soc   smallint    CHECK (supplementary_soc BETWEEN 0 AND 100),
        ${TIMESTAMPS},
        CONSTRAINT vehicle_vin_uq UNIQUE (vin),
        CONSTRAINT vehicle_plate_uq UNIQUE (plate)
      )`);
    await q.query(`CREATE INDEX vehicle_organization_idx ON vehicle (organization_id)`);
    await q.query(`
      CREATE TABLE charging_card (
        id              serial PRIMARY KEY,
        ${ORGANIZATION},
        -- What the pile's reader sends as the OCPP idTag (CiString20).
        physical_number varchar(16) NOT NULL,
        type            smallint    NOT NULL CHECK (type BETWEEN 0 AND 3),
        self_number     varchar(16) NOT NULL,
        cardholder      varchar(32) NOT NULL,
        description     varchar(255),
        status          varchar(12) NOT NULL CHECK (status IN ('notMade', 'normal', 'occupied', 'lost', 'cancelled', 'invalid')),
        expiry_date     timestamptz,
        ${TIMESTAMPS},
        CONSTRAINT charging_card_physical_number_uq UNIQUE (physical_number),
        CONSTRAINT charging_card_self_number_uq UNIQUE (self_number)
      )`);
    await q.query(`CREATE INDEX charging_card_organization_idx ON charging_card (organization_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'charging_card',
      'vehicle',
      'box_transformer',
      'charging_gun',
      'charging_pile',
      'station_label',
      'station',
      'bus_line',
      'bus_fleet',
      'bus_branch',
      'bus_company',
      'asset_label',
      'region',
      'charging_operator',
      'manufacturer',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
