/**
 * Who owns each table, which code belongs to which area, what each owner publishes for the others, and
 * the exceptions kept: the one list `lint-table-ownership.spec.ts` checks the SQL of the tree against and
 * docs/decisions/0001-table-ownership.md lists (a test keeps the two the same).
 */
import type { Access } from './lib/sql-table-refs';

export type Area =
  | 'identity'
  | 'assets'
  | 'billing'
  | 'ledger'
  | 'iccard'
  | 'monitoring'
  | 'msg-center'
  | 'messaging'
  | 'gateway';

/**
 * What a source directory is: an area's code (may name its own tables and what others publish), code
 * that owns no table (may name only what is published), or code the rule does not look at.
 */
export type SourceRole = Area | 'no-tables' | 'not-checked';

/** Source directories, the longest match wins. A file under none of them fails the spec. */
export const SOURCE_ROLES: readonly { dir: string; role: SourceRole; why?: string }[] = [
  { dir: 'libs/server/identity/src', role: 'identity' },
  { dir: 'libs/server/assets/src', role: 'assets' },
  { dir: 'libs/server/billing/src', role: 'billing' },
  { dir: 'libs/server/ledger/src', role: 'ledger' },
  { dir: 'libs/server/iccard/src', role: 'iccard' },
  { dir: 'libs/server/monitoring/src', role: 'monitoring' },
  { dir: 'apps/msg-center/src', role: 'msg-center' },
  { dir: 'libs/server/messaging/src', role: 'messaging' },
  { dir: 'apps/ocpp-gateway/src', role: 'gateway' },
  { dir: 'libs/server/ocpp-gateway/src', role: 'gateway' },
  { dir: 'libs/server/ocpp-commands/src', role: 'gateway' },

  { dir: 'apps/api/src', role: 'no-tables', why: 'composition root: wires the areas' },
  { dir: 'libs/server/core/src', role: 'no-tables' },
  { dir: 'libs/server/database/src', role: 'no-tables' },
  { dir: 'libs/server/spreadsheet/src', role: 'no-tables' },
  { dir: 'libs/server/ocpp-simulator/src', role: 'no-tables' },
  { dir: 'libs/server/jobs/src', role: 'no-tables' },
  {
    dir: 'apps/console-server/src',
    role: 'no-tables',
    why: 'serves the built console and proxies to the services',
  },
  { dir: 'libs/server/pile-credentials/src', role: 'no-tables' },
  { dir: 'apps/card-reader/src', role: 'no-tables', why: 'the IC card reader agent on the operator PC' },

  {
    dir: 'libs/server/database/src/migrations',
    role: 'not-checked',
    why: "the migrations create every area's tables and the views and functions each owner publishes",
  },
  { dir: 'libs/server/testing/src', role: 'not-checked', why: 'tests (see TEST_FILE)' },
  { dir: 'apps/system-tests', role: 'not-checked', why: 'tests (see TEST_FILE)' },
  {
    dir: 'bench',
    role: 'not-checked',
    why: 'benchmarks seed and measure the whole database, like tests',
  },
  {
    dir: 'scripts',
    role: 'not-checked',
    why: 'developer tools (demo data, migrations, test runners) that seed the whole database',
  },
  {
    dir: 'apps/console',
    role: 'not-checked',
    why: 'browser code: the module boundaries keep it away from the database',
  },
  { dir: 'libs/console', role: 'not-checked', why: 'browser code' },
  { dir: 'libs/shared', role: 'not-checked', why: 'browser-safe code' },
];

/**
 * Tests are not checked: a test arranges and observes the whole database the way the migrations do
 * (rows in the owner's tables before the scenario, the outcome after it), it is never deployed, so it
 * couples no area to another at run time, and `libs/server/testing`'s builders are the shared way to
 * make rows. What a test exercises, the code under test, is checked.
 */
export const TEST_FILE = /(\.spec\.tsx?|\.int-spec\.tsx?)$|\/(fixtures|testing)\//;

/** The owner of every table the migrations create, by area. */
export const OWNED_TABLES: Readonly<Record<Area, readonly string[]>> = {
  identity: [
    'sys_organization',
    'sys_user',
    'sys_role',
    'sys_user_role',
    'sys_resource',
    'sys_role_resource',
    'sys_role_organization',
    'sys_dict',
    'sys_platform_config',
    'sys_operation_log',
    'sys_login_log',
    'sys_favorite',
  ],
  assets: [
    'manufacturer',
    'charging_operator',
    'region',
    'asset_label',
    'bus_company',
    'bus_branch',
    'bus_fleet',
    'bus_line',
    'station',
    'station_label',
    'station_picture',
    'parking_space',
    'camera',
    'peak_charging_time',
    'box_transformer',
    'charging_pile',
    'charging_gun',
    'vehicle',
    'charging_card',
    'maintenance_personnel',
    'alarm_code',
    'stop_code',
  ],
  billing: [
    'price_plan',
    'price_plan_stage',
    'price_plan_version',
    'station_price_plan',
    'discount_plan',
    'discount_plan_card',
    'billing_session',
    'billing_reading',
    'billing_pending_stop',
    'charging_order',
    'charging_order_review',
    'charging_order_version',
    'billing_repeat_stop',
    'occupation_stop',
    'occupation_release',
    'occupation_order',
  ],
  ledger: ['ledger_account', 'ledger_transaction', 'ledger_entry', 'ledger_card_account'],
  iccard: ['ic_company', 'ic_customer', 'ic_card', 'ic_card_action'],
  // The monitoring read model lives in Redis, rebuilt from the bus.
  monitoring: [],
  'msg-center': [
    'msg_config',
    'msg_template',
    'msg_group',
    'msg_event',
    'msg_alert',
    'msg_send_log',
    'msg_inbox',
    'msg_stop_notice',
  ],
  messaging: ['outbox_event', 'processed_event'],
  gateway: [
    'pile_registry',
    'unknown_pile_attempt',
    'id_tag',
    'id_tag_ledger_state',
    'ocpp_transaction',
    'ocpp_meter_sample',
    'ocpp_stop_quarantine',
    'ocpp_stop_repeat',
    'connector_status',
    'ocpp_pile_boot',
    'ocpp_pile_firmware_status',
    'pile_command',
    'ocpp_message_log',
  ],
};

/**
 * What owners publish: views anyone may read (never write), and functions anyone may call to change
 * the owner's tables in the caller's transaction. Named `<owner>_..._v` / `<owner>_...` so the owner shows.
 */
export const PUBLISHED_VIEWS: Readonly<Record<string, { owner: Area; readBy: string }>> = {
  identity_organization_v: { owner: 'identity', readBy: 'assets, billing, iccard, monitoring: data scope' },
  identity_user_contact_v: {
    owner: 'identity',
    readBy: 'msg-center: recipients, receiver options; iccard: operator names of records',
  },
  identity_role_v: { owner: 'identity', readBy: 'msg-center: receiver options' },
  identity_user_role_v: { owner: 'identity', readBy: 'msg-center: role groups' },
  identity_user_permission_v: { owner: 'identity', readBy: 'msg-center: stop-notice receivers' },
  identity_dict_v: { owner: 'identity', readBy: 'msg-center: dictionaries' },
  assets_station_v: { owner: 'assets', readBy: 'billing, monitoring' },
  assets_pile_v: { owner: 'assets', readBy: 'billing, monitoring (and the gateway, see the findings)' },
  assets_gun_v: { owner: 'assets', readBy: 'billing, monitoring' },
  assets_card_v: { owner: 'assets', readBy: 'billing, monitoring' },
  assets_vehicle_v: { owner: 'assets', readBy: 'billing, monitoring' },
  assets_alarm_code_v: { owner: 'assets', readBy: 'the gateway (see the findings)' },
  billing_station_price_plan_v: { owner: 'billing', readBy: 'assets: the plan a station charges with' },
  ledger_account_v: {
    owner: 'ledger',
    readBy: 'iccard: balances of customer accounts, their arrears accounts',
  },
  ledger_entry_v: {
    owner: 'ledger',
    readBy: 'iccard: amounts before and after of card actions, account records',
  },
  gateway_pile_command_v: { owner: 'gateway', readBy: 'billing: reservations' },
  gateway_pile_registry_v: { owner: 'gateway', readBy: "assets: a host's state at the gateway" },
  gateway_unknown_pile_attempt_v: { owner: 'gateway', readBy: 'assets: unknown piles' },
};

export const PUBLISHED_FUNCTIONS: Readonly<Record<string, { owner: Area; calledBy: string }>> = {
  gateway_register_pile: { owner: 'gateway', calledBy: 'assets: a host written or re-keyed' },
  gateway_set_pile_state: { owner: 'gateway', calledBy: 'assets: device status of many hosts' },
  gateway_retire_pile: { owner: 'gateway', calledBy: 'assets: a host removed or renamed' },
  gateway_forget_unknown_pile: { owner: 'gateway', calledBy: 'assets: an unknown pile registered' },
  gateway_put_id_tag: { owner: 'gateway', calledBy: 'assets: a card written' },
  gateway_remove_id_tag: { owner: 'gateway', calledBy: 'assets: a card removed or renumbered' },
};

/**
 * References the rule lets through, each with its reason; `access` 'write' also allows reads. The spec
 * fails when one is no longer needed, so the list cannot outlive the code it excuses.
 */
export type KeptException = { area: Area; table: string; access: Access; reason: string };

export const KEPT_EXCEPTIONS: readonly KeptException[] = [];
