import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Identity and administration: organisations (tree, materialised path), users, roles, resources
 * (menus and buttons with permission codes), data authorisation, dictionaries, platform settings,
 * operation and login logs, favourites. Users are not seeded here (passwords are hashed at start-up
 * by the api's demo-data seeder); reference data is.
 */
export class Identity1763820000000 implements MigrationInterface {
  name = 'Identity1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sys_organization (
        id         bigserial PRIMARY KEY,
        parent_id  bigint REFERENCES sys_organization (id),
        code       text        NOT NULL,
        name       text        NOT NULL,
        sort       integer     NOT NULL DEFAULT 0,
        -- '/1/2/7/': ids from the root down to this node, so a subtree is one prefix match.
        path       text        NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sys_organization_code_uq UNIQUE (code)
      )`);
    await q.query(`CREATE INDEX sys_organization_path_idx ON sys_organization (path text_pattern_ops)`);
    await q.query(`CREATE INDEX sys_organization_parent_idx ON sys_organization (parent_id)`);

    await q.query(`
      CREATE TABLE sys_user (
        id                  bigserial PRIMARY KEY,
        username            text        NOT NULL,
        password_hash       text        NOT NULL,
        real_name           text        NOT NULL,
        phone               text,
        email               text,
        organization_id     bigint      NOT NULL REFERENCES sys_organization (id),
        enabled             boolean     NOT NULL DEFAULT true,
        last_login_at       timestamptz,
        password_changed_at timestamptz,
        created_at          timestamptz NOT NULL DEFAULT now(),
        updated_at          timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX sys_user_username_uq ON sys_user (lower(username))`);
    await q.query(`CREATE INDEX sys_user_organization_idx ON sys_user (organization_id)`);

    await q.query(`
      CREATE TABLE sys_role (
        id          bigserial PRIMARY KEY,
        code        text        NOT NULL,
        name        text        NOT NULL,
        description text,
        builtin     boolean     NOT NULL DEFAULT false,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sys_role_code_uq UNIQUE (code)
      )`);
    await q.query(`
      CREATE TABLE sys_user_role (
        user_id bigint NOT NULL REFERENCES sys_user (id) ON DELETE CASCADE,
        role_id bigint NOT NULL REFERENCES sys_role (id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, role_id)
      )`);
    await q.query(`CREATE INDEX sys_user_role_role_idx ON sys_user_role (role_id)`);

    await q.query(`
      CREATE TABLE sys_resource (
        id         bigserial PRIMARY KEY,
        parent_id  bigint REFERENCES sys_resource (id),
        type       text        NOT NULL CHECK (type IN ('menu', 'button')),
        code       text        NOT NULL,
        name       text        NOT NULL,
        path       text,
        icon       text,
        sort       integer     NOT NULL DEFAULT 0,
        visible    boolean     NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sys_resource_code_uq UNIQUE (code)
      )`);
    await q.query(`CREATE INDEX sys_resource_parent_idx ON sys_resource (parent_id)`);
    await q.query(`
      CREATE TABLE sys_role_resource (
        role_id     bigint NOT NULL REFERENCES sys_role (id) ON DELETE CASCADE,
        resource_id bigint NOT NULL REFERENCES sys_resource (id) ON DELETE CASCADE,
        PRIMARY KEY (role_id, resource_id)
      )`);
    await q.query(`
      CREATE TABLE sys_role_organization (
        role_id         bigint NOT NULL REFERENCES sys_role (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES sys_organization (id) ON DELETE CASCADE,
        PRIMARY KEY (role_id, organization_id)
      )`);

    await q.query(`
      CREATE TABLE sys_dict (
        id         bigserial PRIMARY KEY,
        parent_id  bigint REFERENCES sys_dict (id),
        kind       text        NOT NULL CHECK (kind IN ('type', 'item')),
        code       text        NOT NULL,
        name       text        NOT NULL,
        value      text,
        sort       integer     NOT NULL DEFAULT 0,
        enabled    boolean     NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'type') = (parent_id IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX sys_dict_type_code_uq ON sys_dict (code) WHERE kind = 'type'`);
    await q.query(
      `CREATE UNIQUE INDEX sys_dict_item_code_uq ON sys_dict (parent_id, code) WHERE kind = 'item'`,
    );

    await q.query(`
      CREATE TABLE sys_platform_config (
        config_key   text PRIMARY KEY,
        config_value text        NOT NULL,
        category     text        NOT NULL CHECK (category IN ('platform', 'system', 'third_party')),
        -- Public entries are served, encrypted, by GET /public/noAuth/getPlatformModuleConfigList.
        is_public    boolean     NOT NULL DEFAULT false,
        builtin      boolean     NOT NULL DEFAULT false,
        description  text,
        updated_by   text,
        updated_at   timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE sys_operation_log (
        id             bigserial PRIMARY KEY,
        user_id        bigint,
        username       text,
        method         text        NOT NULL,
        path           text        NOT NULL,
        route          text,
        status         integer     NOT NULL,
        success        boolean     NOT NULL,
        ip             text,
        user_agent     text,
        duration_ms    integer     NOT NULL,
        correlation_id text,
        created_at     timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sys_operation_log_created_idx ON sys_operation_log (created_at DESC)`);
    await q.query(`CREATE INDEX sys_operation_log_user_idx ON sys_operation_log (user_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE sys_login_log (
        id         bigserial PRIMARY KEY,
        user_id    bigint,
        username   text        NOT NULL,
        success    boolean     NOT NULL,
        reason     text,
        ip         text,
        user_agent text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sys_login_log_created_idx ON sys_login_log (created_at DESC)`);

    await q.query(`
      CREATE TABLE sys_favorite (
        id         bigserial PRIMARY KEY,
        user_id    bigint      NOT NULL REFERENCES sys_user (id) ON DELETE CASCADE,
        b_id       text        NOT NULL,
        b_type     text        NOT NULL,
        name       text        NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sys_favorite_business_uq UNIQUE (user_id, b_type, b_id)
      )`);

    await seedOrganizations(q);
    const resourceIds = await seedResources(q, MENU_TREE, null);
    await seedRoles(q, resourceIds);
    await seedDictionaries(q);
    await seedPlatformConfig(q);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'sys_favorite',
      'sys_login_log',
      'sys_operation_log',
      'sys_platform_config',
      'sys_dict',
      'sys_role_organization',
      'sys_role_resource',
      'sys_resource',
      'sys_user_role',
      'sys_role',
      'sys_user',
      'sys_organization',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Organisations: a root and three depots (demo users and data-scope tests use them).

async function seedOrganizations(q: QueryRunner): Promise<void> {
  const orgs: [code: string, name: string, parent: string | null][] = [
    ['ROOT', 'Voltdepot Group', null],
    ['FZ', 'Fuzhou Bus Depot', 'ROOT'],
    ['HF', 'Hefei Bus Depot', 'ROOT'],
    ['FZ-N', 'Fuzhou North Yard', 'FZ'],
  ];
  for (const [index, [code, name, parent]] of orgs.entries()) {
    await q.query(
      `INSERT INTO sys_organization (parent_id, code, name, sort, path)
       SELECT p.id, $1, $2, $3, '' FROM (SELECT NULL) x LEFT JOIN sys_organization p ON p.code = $4`,
      [code, name, index, parent],
    );
    await q.query(
      `UPDATE sys_organization o
          SET path = COALESCE((SELECT p.path FROM sys_organization p WHERE p.id = o.parent_id), '/') || o.id || '/'
        WHERE o.code = $1`,
      [code],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Resources: every menu area of the specification, and the buttons whose codes the API checks.

type ResourceSeed = {
  code: string;
  name: string;
  path?: string;
  type?: 'menu' | 'button';
  visible?: boolean;
  children?: ResourceSeed[];
};

const menu = (code: string, name: string, children: ResourceSeed[] = [], path?: string): ResourceSeed => ({
  code,
  name,
  children,
  path,
});
const button = (code: string, name: string): ResourceSeed => ({ code, name, type: 'button' });
const leaves = (prefix: string, items: [string, string][]): ResourceSeed[] =>
  items.map(([code, name]) => menu(`${prefix}:${code}`, name, [], `/${prefix}/${code}`));
const crud = (prefix: string, noun: string): ResourceSeed[] => [
  button(`${prefix}:query`, `Query ${noun}`),
  button(`${prefix}:add`, `Add ${noun}`),
  button(`${prefix}:edit`, `Edit ${noun}`),
  button(`${prefix}:delete`, `Delete ${noun}`),
];

const MENU_TREE: ResourceSeed[] = [
  // Hidden holder of global buttons; go_screen allows the big-screen link of the header.
  { code: 'global', name: 'Global', visible: false, children: [button('go_screen', 'Open big screen')] },
  menu('home', 'Home', [], '/home'),
  menu('welcome', 'Welcome', [], '/welcome'),
  menu('dashboard', 'Dashboard', [], '/dashboard'),
  menu('appManage', 'App management', [
    ...leaves('appManage', [
      ['activityConfig', 'Activity configuration'],
      ['appVersion', 'App version list'],
      ['appointment', 'Appointment charging'],
      ['orderQuery', 'Order query'],
      ['userList', 'User list'],
      ['userOrders', 'User orders'],
      ['tradeCenter', 'Trade center'],
      ['invoice', 'Invoices'],
      ['log', 'Logs'],
      ['feedback', 'Feedback'],
      ['download', 'Download'],
      ['user_list_changes', 'Account record'],
      ['userAccoutAmountRecordDetail', 'Gift record detail'],
    ]),
    menu('appManage:reconciliation', 'Reconciliation', [
      ...leaves('appManage:reconciliation', [
        ['depositRefundDetail', 'Deposit refund detail'],
        ['depositRefundSummary', 'Deposit refund summary'],
        ['userConsumptionSummary', 'User consumption summary'],
      ]),
    ]),
  ]),
  menu('basic', 'Basic data', [
    ...leaves('basic', [
      ['station', 'Stations'],
      ['host', 'Charging hosts'],
      ['gun', 'Guns'],
      ['parkingSpace', 'Parking spaces'],
      ['camera', 'Cameras'],
      ['transformer', 'Box transformers'],
      ['operator', 'Operators'],
      ['manufacturer', 'Manufacturers'],
      ['company', 'Companies'],
      ['fleet', 'Fleets'],
      ['line', 'Lines'],
      ['vehicle', 'Vehicles'],
      ['cardConfig', 'Card configuration'],
      ['region', 'Regions'],
      ['label', 'Labels'],
      ['alarmCode', 'Alarm codes'],
      ['stopCode', 'Stop-charging codes'],
      ['maintenancePersonnel', 'Maintenance personnel'],
      ['peakTime', 'Peak charging time'],
      ['level', 'Level'],
      ['taxRate', 'Tax rate'],
      ['workCondition', 'Work condition'],
      ['stationFee', 'Station fee and occupation rules'],
    ]),
  ]),
  menu(
    'coupon',
    'Coupons',
    leaves('coupon', [
      ['activity', 'Activity'],
      ['position', 'Position'],
      ['resources', 'Resources'],
      ['scene', 'Scene'],
      ['ticket', 'Ticket'],
    ]),
  ),
  menu(
    'dataMining',
    'Data mining',
    leaves('dataMining', [
      ['energyByBus', 'Energy consumption by bus'],
      ['energyByLine', 'Energy consumption by line'],
      ['energyByGroup', 'Energy consumption by group'],
      ['energyByType', 'Energy consumption by type'],
      ['chargerWarning', 'Charger warnings'],
      ['stationAccess', 'Station access'],
      ['costUseRate', 'Cost and use rate'],
      ['batteryDecay', 'Battery decay'],
      ['realtimePower', 'Real-time power query'],
      ['pdfDownload', 'PDF downloads'],
    ]),
  ),
  menu('equipment', 'Equipment operations and maintenance', [
    menu('equipment:interfaceTest', 'Interface test', [], '/equipment/interfaceTest'),
  ]),
  menu(
    'iccard',
    'IC card',
    leaves('iccard', [
      ['customer', 'Customer'],
      ['consumption', 'Consumption'],
      ['recharge', 'Recharge'],
      ['groupAccount', 'Group accounts'],
      ['group_basic_info', 'Group basic info'],
      ['cardManage', 'Card management'],
      ['driverCard', 'Driver card'],
      ['bill', 'Bills'],
    ]),
  ),
  menu(
    'issue',
    'Issues and work orders',
    leaves('issue', [
      ['equipmentIssue', 'Equipment issue'],
      ['inspection', 'Inspection'],
      ['maintenanceSet', 'Maintenance set'],
      ['stateQuery', 'State query'],
    ]),
  ),
  menu(
    'msg',
    'Messaging',
    leaves('msg', [
      ['alerts', 'Alerts'],
      ['config', 'Config'],
      ['event', 'Event'],
      ['group', 'Group'],
      ['template', 'Template'],
    ]),
  ),
  menu('operation', 'Operations', [
    menu(
      'operation:parameter',
      'Parameter settings',
      leaves('operation:parameter', [
        ['whiteList', 'White lists'],
        ['delayStrategy', 'Delay strategy'],
        ['startPolicy', 'Start policy'],
        ['currentSetting', 'Current setting'],
        ['rateDispatch', 'Rate dispatch'],
        ['qrCode', 'QR code'],
      ]),
    ),
    ...leaves('operation', [
      ['busMap', 'Bus map monitoring'],
      ['busList', 'Bus list monitoring'],
      ['stationMonitor', 'Station monitoring'],
      ['pileMonitor', 'Pile monitoring'],
      ['chargingSchedule', 'Charging schedule'],
      ['dispatch', 'Dispatch'],
      ['nightPlanByBus', 'Night plan by bus'],
      ['nightPlanByCharger', 'Night plan by charger'],
      ['revenue', 'Revenue'],
      ['simulation', 'Simulation'],
      ['camera', 'Camera'],
      ['terminalList', 'Terminal list'],
      ['testReport', 'Test report'],
      ['videoLive', 'Video live'],
      ['videoHistory', 'Video history'],
      ['workbench', 'Workbench'],
      ['homeAds', 'Ads for home'],
      ['screenAds', 'Ads for screen'],
      ['announcement', 'Announcement'],
      ['pullStation', 'Pull station'],
      ['occupationOrder', 'Occupation fee orders'],
    ]),
  ]),
  menu(
    'parking',
    'Parking',
    leaves('parking', [
      ['carPass', 'Car pass'],
      ['gate', 'Gate'],
      ['discount', 'Discount'],
      ['order', 'Order'],
      ['price', 'Price'],
      ['parkingLot', 'Parking lot'],
      ['workbench', 'Workbench'],
      ['parkEditor', 'Park editor'],
      ['parkView', 'Park view'],
    ]),
  ),
  menu(
    'report',
    'Reports',
    leaves('report', [
      ['statistics', 'Statistics'],
      ['detail', 'Detail'],
      ['reconciliationApproval', 'Reconciliation approval'],
      ['audit', 'Audit'],
      ['electricFee', 'Electric fee'],
      ['serviceFee', 'Service fee'],
      ['summaryAnalysis', 'Summary analysis'],
      ['checkAccount', 'Account check'],
    ]),
  ),
  menu('station', 'Station', [
    menu('station:ChargEquipManage', 'Charger management', [], '/station/ChargEquipManage/index'),
    menu(
      'station:stationInfoManage',
      'Station information',
      [],
      '/station/stationInfoManage/components/addForm',
    ),
  ]),
  menu('sys', 'System', [
    menu('sys:user', 'Users', [
      ...crud('sys:user', 'user'),
      button('sys:user:enable', 'Enable or disable user'),
      button('sys:user:resetPassword', 'Reset password'),
      button('sys:user:copy', 'Copy user'),
      button('sys:user:role', 'Assign roles'),
    ]),
    menu('sys:role', 'Roles', [
      ...crud('sys:role', 'role'),
      button('sys:role:menuAuth', 'Menu authorization'),
      button('sys:role:dataAuth', 'Data authorization'),
    ]),
    menu('sys:org', 'Organizations', crud('sys:org', 'organization')),
    menu('sys:resource', 'Resources', crud('sys:resource', 'resource')),
    menu('sys:dict', 'Dictionaries', crud('sys:dict', 'dictionary')),
    menu('sys:config', 'Config', [
      button('sys:config:query', 'Query settings'),
      button('sys:config:edit', 'Edit settings'),
    ]),
    menu('sys:parameter', 'Parameters'),
    menu('sys:thirdParty', 'Third party'),
    menu('sys:log', 'Logs', [
      button('sys:log:operation', 'Operation log'),
      button('sys:log:login', 'Login log'),
    ]),
    menu('sys:basic', 'Basic'),
    menu('sys:group', 'Group'),
    menu('sys:region', 'Region'),
  ]),
  menu('tb', 'Table maintenance'),
  menu(
    'warn',
    'Alarms',
    leaves('warn', [
      ['alarmLog', 'Alarm log'],
      ['inspection', 'Inspection'],
      ['settings', 'Settings'],
      ['errorCodeRoles', 'Error-code roles'],
      ['errorCodeMessages', 'Error-code messages'],
    ]),
  ),
  menu(
    'tools',
    'Shared admin tools',
    leaves('tools', [
      ['command', 'Command'],
      ['formDesigner', 'Config form designer'],
      ['generator', 'Generator'],
      ['monitor', 'Monitor dashboard'],
      ['reportDesigner', 'Report designer'],
      ['reportViewer', 'Report viewer'],
    ]),
  ),
];

/** Inserts the tree depth first; returns resource id by code. */
async function seedResources(
  q: QueryRunner,
  nodes: ResourceSeed[],
  parentId: number | null,
  ids: Map<string, number> = new Map(),
): Promise<Map<string, number>> {
  for (const [sort, node] of nodes.entries()) {
    const type = node.type ?? 'menu';
    const path = type === 'menu' ? (node.path ?? `/${node.code.replaceAll(':', '/')}`) : null;
    const rows = (await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, sort, visible)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [parentId, type, node.code, node.name, path, sort, node.visible ?? true],
    )) as { id: string }[];
    const id = Number(rows[0].id);
    ids.set(node.code, id);
    if (node.children !== undefined) await seedResources(q, node.children, id, ids);
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Roles of the issue: administrator, operator staff, maintenance staff, fleet manager.

const ROLE_SEEDS: {
  code: string;
  name: string;
  description: string;
  /** Resource codes granted (a menu code grants the menu only, not its subtree). */
  grants: (code: string) => boolean;
  /** Data authorisation: organisation codes whose subtree the role sees (none = the user's own organisation). */
  orgs: string[];
}[] = [
  {
    code: 'admin',
    name: 'Administrator',
    description: 'Everything, every organisation',
    grants: () => true,
    orgs: ['ROOT'],
  },
  {
    code: 'operator',
    name: 'Operator staff',
    description: 'Operations, monitoring and business data; reads users and organisations',
    grants: (c) =>
      !c.startsWith('sys') && !c.startsWith('tools') && c !== 'tb'
        ? true
        : [
            'sys',
            'sys:user',
            'sys:user:query',
            'sys:org',
            'sys:org:query',
            'sys:log',
            'sys:log:operation',
          ].includes(c),
    orgs: ['ROOT'],
  },
  {
    code: 'maintainer',
    name: 'Maintenance staff',
    description: 'Equipment, alarms and work orders',
    grants: (c) =>
      ['global', 'home', 'welcome', 'station', 'equipment', 'warn', 'issue', 'basic'].some(
        (area) => c === area || c.startsWith(`${area}:`),
      ) && c !== 'go_screen',
    orgs: ['HF'],
  },
  {
    code: 'fleet_manager',
    name: 'Fleet manager',
    description: 'Vehicles, reports and data mining of the own organisation',
    grants: (c) =>
      c === 'go_screen' ||
      ['global', 'home', 'welcome', 'dashboard', 'report', 'dataMining', 'sys:user', 'sys:org'].includes(c) ||
      ['report:', 'dataMining:'].some((prefix) => c.startsWith(prefix)) ||
      [
        'operation',
        'operation:busMap',
        'operation:busList',
        'sys',
        'sys:user:query',
        'sys:org:query',
      ].includes(c),
    orgs: [],
  },
];

async function seedRoles(q: QueryRunner, resourceIds: Map<string, number>): Promise<void> {
  for (const role of ROLE_SEEDS) {
    const rows = (await q.query(
      `INSERT INTO sys_role (code, name, description, builtin) VALUES ($1, $2, $3, true) RETURNING id`,
      [role.code, role.name, role.description],
    )) as { id: string }[];
    const roleId = Number(rows[0].id);
    const granted = [...resourceIds].filter(([code]) => role.grants(code)).map(([, id]) => id);
    await q.query(`INSERT INTO sys_role_resource (role_id, resource_id) SELECT $1, unnest($2::bigint[])`, [
      roleId,
      granted,
    ]);
    if (role.orgs.length > 0) {
      await q.query(
        `INSERT INTO sys_role_organization (role_id, organization_id)
         SELECT $1, id FROM sys_organization WHERE code = ANY($2::text[])`,
        [roleId, role.orgs],
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Dictionaries: every enumeration of the two specifications, so screens take options from them.

type DictSeed = [code: string, name: string, items: [value: string, name: string][]];

const numbered = (prefix: string, values: (number | string)[]): [string, string][] =>
  values.map((v) => [String(v), `${prefix} ${v}`]);
const same = (values: string[]): [string, string][] => values.map((v) => [v, v]);

const DICTIONARIES: DictSeed[] = [
  // Platform and messaging (platform-and-messaging §3, §9)
  [
    'message_type',
    'Message template type',
    [
      ['0', 'None'],
      ['1', 'Link'],
      ['2', 'Email'],
    ],
  ],
  [
    'channel_type',
    'Channel type',
    [
      ['SMS', 'SMS'],
      ['EMAIL', 'Email'],
      ['WECHAT', 'WeChat'],
      ['DDTALK', 'DingTalk'],
      ['WEBSOCKET', 'In-site message'],
    ],
  ],
  ['sms_provider', 'SMS provider', same(['ALIYUN', 'TENCENT'])],
  ['ddtalk_type', 'DingTalk message type', same(['TEXT', 'LINK'])],
  ['msg_status', 'Status', same(['DEFAULT', 'DOWN', 'UP', 'EXCEPTION', 'SUCCESS', 'CUSTOM'])],
  [
    'alert_group',
    'Alert group',
    same(['BUSINESS', 'NODE', 'WEB', 'KAFKA', 'REDIS', 'CONNECTION', 'HTTP', 'MYSQL', 'ORACLE']),
  ],
  [
    'event_channel',
    'Event channel',
    [
      ['0', 'SMS'],
      ['1', 'Email'],
      ['2', 'WeChat'],
      ['3', 'DingTalk'],
      ['4', 'In-site message'],
    ],
  ],
  [
    'alert_level',
    'Level',
    [
      ['PROMPT', 'Prompt'],
      ['MINOR', 'Minor'],
      ['IMPORTANT', 'Important'],
      ['EMERGENCY', 'Emergency'],
    ],
  ],
  [
    'group_type',
    'Group type',
    [
      ['ROLE', 'Role'],
      ['USER', 'User'],
      ['NONE', 'None'],
    ],
  ],
  [
    'frequency',
    'Frequency',
    [
      ['FIVE_MINUTES', 'Five minutes'],
      ['THIRTY_MINUTES', 'Thirty minutes'],
      ['HOURS', 'Hourly'],
      ['FOUR_HOURS', 'Four hours'],
      ['DAY', 'Daily'],
      ['WEEK', 'Weekly'],
    ],
  ],
  [
    'comparison',
    'Comparison expression',
    [
      ['GE', '>='],
      ['LE', '<='],
    ],
  ],
  ['job_type', 'Job type', same(['KAFKA', 'REDIS', 'JAVA', 'HTTP', 'CONNECTION', 'NODE'])],
  [
    'account_check_category',
    'Account-check category',
    [
      ['1', 'Lack'],
      ['2', 'Repeat'],
      ['3', 'NoEq'],
      ['4', 'ValErr'],
      ['5', 'NoBus'],
      ['6', 'SocErr'],
      ['7', 'VinErr'],
      ['8', 'ChargerValErr'],
      ['9', 'OutSettlement'],
      ['10', 'RepeatBusTime'],
      ['99', 'Unsigned-account log'],
    ],
  ],
  [
    'city_code',
    'City code',
    [
      ['fz', 'Fuzhou'],
      ['hefei', 'Hefei'],
      ['tm166', 'tm166'],
    ],
  ],
  [
    'logo_title_mode',
    'Logo and title',
    [
      ['1', 'Logo and title'],
      ['2', 'Title only'],
      ['3', 'Logo only'],
    ],
  ],
  [
    'app_kind',
    'App kind',
    [
      ['user', 'User app'],
      ['management', 'Management app'],
    ],
  ],
  [
    'stop_notice_type',
    'Charging stop notice',
    [
      ['1', 'Charging stopped normally'],
      ['0', 'Charging stopped abnormally'],
    ],
  ],
  // Business areas (business-areas §4, §9)
  [
    'station_status',
    'Station status',
    [
      ['0', 'In use'],
      ['1', 'Under construction'],
      ['2', 'Maintenance'],
      ['3', 'Disabled'],
    ],
  ],
  [
    'charger_status',
    'Charger status',
    [
      ['normal', 'Normal'],
      ['construction', 'Construction'],
      ['maintenance', 'Maintenance'],
      ['disabled', 'Disabled'],
    ],
  ],
  [
    'device_status',
    'Device status',
    [
      ['1', 'Under construction'],
      ['5', 'Offline and disabled'],
      ['6', 'Long-term maintenance'],
      ['50', 'Normal after acceptance'],
    ],
  ],
  [
    'gun_status',
    'Gun status',
    [
      ['idle', 'Idle'],
      ['reservation', 'Reservation'],
      ['connected', 'Connected'],
      ['charging', 'Charging'],
      ['stopCharging', 'Stop charging'],
      ['fault', 'Fault'],
      ['offline', 'Offline'],
    ],
  ],
  [
    'ground_lock_status',
    'Ground lock',
    [
      ['0', 'Unknown'],
      ['10', 'Unlocked'],
      ['50', 'Locked'],
    ],
  ],
  [
    'vehicle_charge_status',
    'Vehicle charging status',
    [
      ['uncharged', 'Uncharged'],
      ['parkingCharge', 'Parking charge'],
      ['drivingCharge', 'Driving charge'],
      ['complete', 'Charging complete'],
    ],
  ],
  [
    'card_status',
    'Card status',
    [
      ['notMade', 'Not made'],
      ['normal', 'Normal'],
      ['occupied', 'Occupied'],
      ['lost', 'Reported lost'],
      ['cancelled', 'Cancelled'],
      ['invalid', 'Invalid'],
    ],
  ],
  [
    'pay_status',
    'Pay status',
    [
      ['0', 'Unpaid'],
      ['1', 'Paid'],
      ['3', 'Abnormal'],
    ],
  ],
  [
    'order_status',
    'Order status',
    [
      ['unpaid', 'Unpaid'],
      ['paid', 'Paid'],
      ['refund', 'Refund'],
      ['abnormal', 'Abnormal'],
      ['unsettled', 'Unsettled'],
    ],
  ],
  [
    'reservation_status',
    'Reservation status',
    [
      ['successful', 'Successful'],
      ['completed', 'Completed'],
      ['timedOut', 'Timed out'],
      ['cancelled', 'Cancelled'],
    ],
  ],
  [
    'activity_status',
    'Activity status',
    [
      ['notExecuted', 'Not executed'],
      ['inProgress', 'In progress'],
      ['ended', 'Ended'],
    ],
  ],
  [
    'test_result',
    'Test result',
    [
      ['testing', 'Testing'],
      ['pass', 'Pass'],
      ['fail', 'Fail'],
    ],
  ],
  [
    'approval_status',
    'Approval status',
    [
      ['pending', 'Pending'],
      ['audited', 'Audited'],
      ['rejected', 'Rejected'],
    ],
  ],
  [
    'reconciliation_status',
    'Reconciliation status',
    [
      ['notReconciled', 'Not reconciled'],
      ['inProgress', 'In progress'],
      ['completed', 'Completed'],
    ],
  ],
  [
    'whitelist_delivery_status',
    'Whitelist delivery',
    [
      ['init', 'Initialization'],
      ['delivered', 'Successful delivery'],
      ['cleared', 'Successful clear'],
      ['failed', 'Delivery failed'],
    ],
  ],
  [
    'work_order_status',
    'Work order status',
    [
      ['pending', 'Pending'],
      ['toReview', 'To be reviewed'],
      ['completed', 'Completed'],
    ],
  ],
  [
    'delay_strategy',
    'Delay strategy',
    [
      ['noStart', 'Do not start'],
      ['instant', 'Instant'],
      ['timed', 'Timed'],
      ['auto', 'Auto'],
    ],
  ],
  [
    'verify_status',
    'Verification',
    [
      ['0', 'Not verified'],
      ['1', 'Verified'],
    ],
  ],
  [
    'card_type',
    'Card type',
    [
      ['0', 'Driver'],
      ['1', 'Consumer'],
      ['2', 'Management'],
      ['3', 'Charging'],
    ],
  ],
  [
    'national_standard',
    'National standard',
    [
      ['1', '2011 edition'],
      ['2', '2015 edition'],
      ['3', '2011 or 2015'],
      ['255', 'Other'],
    ],
  ],
  ['charger_type', 'Charger type', numbered('Charger type', [0, 1, 2, 3, 4, 5, 6, 7, 8, 255])],
  [
    'start_type',
    'Start type',
    [
      ['0', 'Until full'],
      ['1', 'By time'],
      ['2', 'By percent'],
      ['3', 'By amount'],
      ['4', 'By energy'],
    ],
  ],
  ['connector_type', 'Connector type', numbered('Connector type', [1, 2, 3, 4, 5, 255])],
  [
    'bms_power',
    'BMS auxiliary power',
    [
      ['1', '12V'],
      ['2', '24V'],
      ['3', 'Adaptive'],
      ['255', 'Other'],
    ],
  ],
  [
    'station_type',
    'Station type',
    [
      ['0', 'Private'],
      ['1', 'Public'],
      ['100', 'Bus'],
      ['101', 'Sanitation'],
      ['102', 'Logistics'],
      ['103', 'Taxi'],
      ['255', 'Other'],
    ],
  ],
  [
    'payment_mode',
    'Payment mode',
    [
      ['0', 'Postpaid'],
      ['1', 'Prepaid'],
    ],
  ],
  [
    'sex',
    'Sex',
    [
      ['0', 'Male'],
      ['1', 'Female'],
    ],
  ],
  [
    'client_type',
    'Client type',
    [
      ['1', 'Personal'],
      ['2', 'Group'],
      ['3', 'Group external card'],
    ],
  ],
  [
    'charging_period_type',
    'Charging period',
    [
      ['valley', 'Valley'],
      ['normal', 'Normal'],
      ['peak', 'Peak'],
      ['sharp', 'Sharp'],
      ['deepValley', 'Deep valley'],
    ],
  ],
  [
    'payment_type',
    'Payment type',
    [
      ['alipay', 'Alipay'],
      ['weChat', 'WeChat'],
      ['account', 'Account'],
      ['weChatMiniProgram', 'WeChat mini program'],
    ],
  ],
  [
    'parking_space_type',
    'Parking space type',
    [
      ['bus', 'Bus'],
      ['social', 'Social vehicle'],
    ],
  ],
  [
    'manufacturer_type',
    'Production plant type',
    [
      ['pile', 'Charging pile'],
      ['car', 'Car manufacturer'],
    ],
  ],
  [
    'alarm_notify_frequency',
    'Alarm notification frequency',
    [
      ['daily', 'Once a day'],
      ['fiveMinutes', 'Every five minutes'],
      ['unlimited', 'Unlimited'],
    ],
  ],
  [
    'alarm_level',
    'Alarm level',
    [
      ['0', 'None'],
      ['1', 'Level 1'],
      ['2', 'Level 2'],
      ['3', 'Level 3'],
    ],
  ],
  [
    'alarm_category',
    'Alarm category',
    [
      ['general', 'General'],
      ['energyStorage', 'Energy storage'],
      ['driveMotor', 'Drive motor'],
      ['engine', 'Engine'],
      ['other', 'Other'],
    ],
  ],
  [
    'condition_type',
    'Condition type',
    [
      ['eq', 'Equal'],
      ['gt', 'More than'],
      ['lt', 'Less than'],
      ['in', 'Within range'],
      ['out', 'Out of range'],
    ],
  ],
  [
    'maintenance_unit',
    'Maintenance unit',
    [
      ['day', 'Day'],
      ['hour', 'Hour'],
      ['frequency', 'Frequency'],
    ],
  ],
  [
    'night_plan_type',
    'Night plan type',
    [
      ['peak', 'By peak period'],
      ['percent', 'By charging percentage'],
    ],
  ],
  [
    'customer_type',
    'Customer type',
    [
      ['personal', 'Personal'],
      ['group', 'Group'],
    ],
  ],
];

async function seedDictionaries(q: QueryRunner): Promise<void> {
  for (const [typeSort, [code, name, items]] of DICTIONARIES.entries()) {
    const rows = (await q.query(
      `INSERT INTO sys_dict (kind, code, name, sort) VALUES ('type', $1, $2, $3) RETURNING id`,
      [code, name, typeSort],
    )) as { id: string }[];
    await q.query(
      `INSERT INTO sys_dict (parent_id, kind, code, name, value, sort)
       SELECT $1, 'item', v, n, v, s - 1 FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(v, n, s)`,
      [Number(rows[0].id), items.map(([v]) => v), items.map(([, n]) => n)],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Platform settings the console reads at start-up (public), and the sys area's parameters.

async function seedPlatformConfig(q: QueryRunner): Promise<void> {
  const entries: [key: string, value: string, category: string, isPublic: boolean, description: string][] = [
    ['systemName', 'menu.system.name', 'platform', true, 'System name (translated when it contains "menu")'],
    ['systemTitle', 'Voltdepot Charging Operations', 'platform', true, 'Title shown in the header'],
    ['logo', '/logo.svg', 'platform', true, 'Logo URL'],
    ['logoTitleMode', '1', 'platform', true, '1 logo and title, 2 title only, 3 logo only'],
    ['noticeIcon', '1', 'platform', true, '1 shows the notification bell, 0 hides it'],
    ['bigScreen', '1', 'platform', true, '1 enables the big-screen link (with go_screen)'],
    ['cityCode', 'fz', 'platform', true, "City code: 'fz', 'hefei' or 'tm166'"],
    ['systemList', '[]', 'platform', true, 'JSON array of { name, url }: systems offered on /home'],
    ['requestTimeoutMs', '120000', 'system', false, 'Console request time-out'],
    ['businessTimeZone', 'Asia/Shanghai', 'system', false, 'Business time zone'],
    ['thirdParty.amapKey', '', 'third_party', false, 'Map service key'],
    ['thirdParty.cameraPrefix', '', 'third_party', false, 'Camera service base URL'],
  ];
  for (const [key, value, category, isPublic, description] of entries) {
    await q.query(
      `INSERT INTO sys_platform_config (config_key, config_value, category, is_public, builtin, description)
       VALUES ($1, $2, $3, $4, true, $5)`,
      [key, value, category, isPublic, description],
    );
  }
}
