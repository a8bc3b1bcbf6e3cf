import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Message centre: channel configurations, templates, receiver groups, event rules, alerts, the send
 * log (one row per event x receiver x channel) and the in-app inbox. Also the `msg:stopNotice`
 * permission: users holding it (through a role) receive realtime charging-stop notices.
 */
export class MsgCenter1763830000000 implements MigrationInterface {
  name = 'MsgCenter1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE msg_config (
        id          bigserial PRIMARY KEY,
        config_name text        NOT NULL,
        -- The message type the config serves (spec: fullName).
        full_name   text        NOT NULL,
        channel     text        NOT NULL CHECK (channel IN ('SMS', 'EMAIL', 'WECHAT', 'DDTALK', 'WEBSOCKET')),
        -- ALIYUN | TENCENT for SMS, TEXT | LINK for DDTALK.
        provider    text,
        -- Channel credentials and endpoints; never logged, masked in responses.
        settings    jsonb       NOT NULL DEFAULT '{}',
        status      text        NOT NULL DEFAULT 'DEFAULT',
        username    text,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT msg_config_name_uq UNIQUE (config_name)
      )`);

    await q.query(`
      CREATE TABLE msg_template (
        id            bigserial PRIMARY KEY,
        config_id     bigint      NOT NULL REFERENCES msg_config (id),
        template_name text        NOT NULL,
        content       text,
        msg_key       text,
        type          text        NOT NULL DEFAULT '0' CHECK (type IN ('0', '1', '2')),
        parameters    jsonb       NOT NULL DEFAULT '{}',
        username      text,
        editable      boolean     NOT NULL DEFAULT true,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX msg_template_config_idx ON msg_template (config_id)`);

    await q.query(`
      CREATE TABLE msg_group (
        id          bigserial PRIMARY KEY,
        name        text        NOT NULL,
        type        text        NOT NULL CHECK (type IN ('ROLE', 'USER', 'NONE')),
        -- Role ids (ROLE) or user ids (USER); empty for NONE.
        member_ids  bigint[]    NOT NULL DEFAULT '{}',
        description text,
        username    text,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT msg_group_name_uq UNIQUE (name)
      )`);

    // Event rules: which bus events become which messages, to whom, on which channels, how often.
    await q.query(`
      CREATE TABLE msg_event (
        id          bigserial PRIMARY KEY,
        name        text        NOT NULL,
        event_type  text        NOT NULL,
        -- Payload fields that must match, e.g. {"stopKind": "abnormal"}.
        condition   jsonb       NOT NULL DEFAULT '{}',
        template_id bigint      REFERENCES msg_template (id),
        group_id    bigint      REFERENCES msg_group (id),
        channels    smallint[]  NOT NULL DEFAULT '{}',
        level       text        NOT NULL DEFAULT 'PROMPT' CHECK (level IN ('PROMPT', 'MINOR', 'IMPORTANT', 'EMERGENCY')),
        frequency   text        CHECK (frequency IN ('FIVE_MINUTES', 'THIRTY_MINUTES', 'HOURS', 'FOUR_HOURS', 'DAY', 'WEEK')),
        enabled     boolean     NOT NULL DEFAULT true,
        username    text,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX msg_event_type_idx ON msg_event (event_type) WHERE enabled`);

    await q.query(`
      CREATE TABLE msg_alert (
        id              bigserial PRIMARY KEY,
        name            text        NOT NULL,
        alert_group     text        NOT NULL,
        job_type        text        NOT NULL CHECK (job_type IN ('KAFKA', 'REDIS', 'JAVA', 'HTTP', 'CONNECTION', 'NODE')),
        target          text        NOT NULL,
        expression      text        NOT NULL DEFAULT 'GE' CHECK (expression IN ('GE', 'LE')),
        threshold       double precision NOT NULL DEFAULT 0,
        template_id     bigint      REFERENCES msg_template (id),
        group_id        bigint      REFERENCES msg_group (id),
        channels        smallint[]  NOT NULL DEFAULT '{}',
        level           text        NOT NULL DEFAULT 'PROMPT' CHECK (level IN ('PROMPT', 'MINOR', 'IMPORTANT', 'EMERGENCY')),
        frequency       text        CHECK (frequency IN ('FIVE_MINUTES', 'THIRTY_MINUTES', 'HOURS', 'FOUR_HOURS', 'DAY', 'WEEK')),
        status          text        NOT NULL DEFAULT 'DEFAULT',
        enabled         boolean     NOT NULL DEFAULT true,
        last_value      double precision,
        last_checked_at timestamptz,
        username        text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE msg_send_log (
        id               bigserial PRIMARY KEY,
        -- Deterministic queue job id (event x receiver x channel): a retried dispatch finds this row.
        job_id           text        NOT NULL,
        event_key        text        NOT NULL,
        rule_kind        text        NOT NULL,
        rule_id          bigint,
        channel          smallint    NOT NULL,
        receiver_user_id bigint,
        receiver         text        NOT NULL,
        title            text,
        content          text,
        status           text        NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED', 'RETRYING')),
        attempts         integer     NOT NULL DEFAULT 0,
        error            text,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        sent_at          timestamptz,
        CONSTRAINT msg_send_log_job_uq UNIQUE (job_id)
      )`);
    await q.query(`CREATE INDEX msg_send_log_created_idx ON msg_send_log (created_at DESC)`);

    await q.query(`
      CREATE TABLE msg_inbox (
        id         bigserial PRIMARY KEY,
        user_id    bigint      NOT NULL,
        title      text        NOT NULL,
        content    text        NOT NULL,
        sender     text        NOT NULL,
        send_time  timestamptz NOT NULL DEFAULT now(),
        is_read    boolean     NOT NULL DEFAULT false,
        read_at    timestamptz,
        -- Business key of the message (event id, job id): a redelivered event finds its row.
        dedupe_key text        NOT NULL,
        CONSTRAINT msg_inbox_dedupe_uq UNIQUE (user_id, dedupe_key)
      )`);
    await q.query(`CREATE INDEX msg_inbox_user_time_idx ON msg_inbox (user_id, send_time DESC)`);
    await q.query(`CREATE INDEX msg_inbox_unread_idx ON msg_inbox (user_id) WHERE NOT is_read`);

    // Receivers of realtime stop notices: whoever holds msg:stopNotice through a role.
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, sort, visible)
       SELECT id, 'button', 'msg:stopNotice', 'Receive charging-stop notices', NULL, 99, true
         FROM sys_resource WHERE code = 'msg'`,
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator') AND s.code = 'msg:stopNotice'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = 'msg:stopNotice'`);
    for (const table of [
      'msg_inbox',
      'msg_send_log',
      'msg_alert',
      'msg_event',
      'msg_group',
      'msg_template',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
    await q.query(`DROP TABLE msg_config`);
  }
}
