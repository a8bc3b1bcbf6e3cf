import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Price plans, the settlement read model built from gateway events, and charging orders. */
export class Billing1763840000000 implements MigrationInterface {
  name = 'Billing1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE price_plan (
        id          serial PRIMARY KEY,
        name        varchar(64) NOT NULL,
        is_default  boolean NOT NULL DEFAULT false,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX price_plan_one_default ON price_plan (is_default) WHERE is_default`);
    await q.query(`
      CREATE TABLE price_plan_stage (
        plan_id           integer NOT NULL REFERENCES price_plan(id) ON DELETE CASCADE,
        seq               smallint NOT NULL,
        stage_type        varchar(16) NOT NULL
                          CHECK (stage_type IN ('sharp','peak','normal','valley','deepValley')),
        start_minute      smallint NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
        end_minute        smallint NOT NULL CHECK (end_minute BETWEEN 1 AND 1440),
        electricity_price integer  NOT NULL CHECK (electricity_price >= 0),
        service_fee       integer  NOT NULL CHECK (service_fee >= 0),
        PRIMARY KEY (plan_id, seq)
      )`);
    // Which plan prices a station's sessions from when; a session is priced by the plan in force at its start.
    await q.query(`
      CREATE TABLE station_price_plan (
        station_id     integer NOT NULL,
        plan_id        integer NOT NULL REFERENCES price_plan(id),
        effective_from timestamptz NOT NULL,
        PRIMARY KEY (station_id, effective_from)
      )`);
    await q.query(`
      CREATE TABLE billing_session (
        charge_point_id varchar(64) NOT NULL,
        transaction_id  integer     NOT NULL,
        connector_id    integer     NOT NULL,
        id_tag          varchar(20) NOT NULL,
        meter_start_wh  bigint      NOT NULL,
        started_at      timestamptz NOT NULL,
        PRIMARY KEY (charge_point_id, transaction_id)
      )`);
    await q.query(`
      CREATE TABLE billing_reading (
        charge_point_id varchar(64) NOT NULL,
        transaction_id  integer     NOT NULL,
        measurand       varchar(48) NOT NULL,
        at              timestamptz NOT NULL,
        value           numeric     NOT NULL,
        flag            varchar(32),
        PRIMARY KEY (charge_point_id, transaction_id, measurand, at)
      )`);
    // A stop that arrived before its start waits here until the start shows up.
    await q.query(`
      CREATE TABLE billing_pending_stop (
        charge_point_id varchar(64) NOT NULL,
        transaction_id  integer     NOT NULL,
        payload         jsonb       NOT NULL,
        received_at     timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (charge_point_id, transaction_id)
      )`);
    await q.query(`
      CREATE TABLE charging_order (
        id                   bigserial PRIMARY KEY,
        order_no             varchar(40) NOT NULL UNIQUE,
        charge_point_id      varchar(64) NOT NULL,
        connector_id         integer     NOT NULL,
        transaction_id       integer     NOT NULL,
        id_tag               varchar(20),
        started_at           timestamptz,
        stopped_at           timestamptz NOT NULL,
        meter_start_wh       bigint,
        meter_stop_wh        bigint      NOT NULL,
        energy_wh            bigint      NOT NULL DEFAULT 0,
        start_soc            smallint,
        end_soc              smallint,
        sharp_energy_wh      bigint  NOT NULL DEFAULT 0,
        sharp_electricity_fen bigint NOT NULL DEFAULT 0,
        sharp_service_fen    bigint  NOT NULL DEFAULT 0,
        peak_energy_wh       bigint  NOT NULL DEFAULT 0,
        peak_electricity_fen bigint  NOT NULL DEFAULT 0,
        peak_service_fen     bigint  NOT NULL DEFAULT 0,
        normal_energy_wh     bigint  NOT NULL DEFAULT 0,
        normal_electricity_fen bigint NOT NULL DEFAULT 0,
        normal_service_fen   bigint  NOT NULL DEFAULT 0,
        valley_energy_wh     bigint  NOT NULL DEFAULT 0,
        valley_electricity_fen bigint NOT NULL DEFAULT 0,
        valley_service_fen   bigint  NOT NULL DEFAULT 0,
        deep_valley_energy_wh bigint NOT NULL DEFAULT 0,
        deep_valley_electricity_fen bigint NOT NULL DEFAULT 0,
        deep_valley_service_fen bigint NOT NULL DEFAULT 0,
        electricity_fen      bigint  NOT NULL DEFAULT 0,
        service_fen          bigint  NOT NULL DEFAULT 0,
        total_fen            bigint  NOT NULL DEFAULT 0,
        price_plan_id        integer REFERENCES price_plan(id),
        end_reason           varchar(32) NOT NULL,
        stop_kind            varchar(8)  NOT NULL CHECK (stop_kind IN ('normal','abnormal')),
        start_mode           varchar(16) NOT NULL DEFAULT 'card',
        pay_status           smallint    NOT NULL CHECK (pay_status IN (0, 1, 3)),
        abnormal_reasons     text[]      NOT NULL DEFAULT '{}',
        settled_at           timestamptz NOT NULL DEFAULT now(),
        UNIQUE (charge_point_id, transaction_id)
      )`);
    await q.query(`CREATE INDEX charging_order_stopped_at_idx ON charging_order (stopped_at DESC)`);
    await q.query(
      `CREATE INDEX charging_order_abnormal_idx ON charging_order (stopped_at DESC) WHERE pay_status = 3`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'charging_order',
      'billing_pending_stop',
      'billing_reading',
      'billing_session',
      'station_price_plan',
      'price_plan_stage',
      'price_plan',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
