/**
 * The demo depot seed (`npm start`) writes real charging-assets records, keeps the gateway's registry and
 * id tags in step with them, and can run any number of times without creating or failing anything.
 */
import { ASSET_DEFINITIONS } from '@voltdepot/server-assets';
import { createTestDatabase, type TestDatabase } from '@voltdepot/server-testing';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';
import {
  cardTransition,
  CHARGER_TYPE_LABELS,
  CONNECTOR_TYPE_LABELS,
  type CardStatus,
  type IcCardAction,
} from '@voltdepot/shared-contracts';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the demo depot is a script (npm start); this tests it
import { DEMO_FAULTS } from '../../../scripts/demo/basic-data';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import {
  busCards,
  CHARGER_TYPE_DC,
  DEMO_PILE_PASSWORD,
  demoVehicles,
  pileIds,
  seedDemoDepot,
} from '../../../scripts/demo-depot';

const COUNTS: Record<string, string> = {
  stations: `SELECT count(*)::int AS n FROM station WHERE name IN ('东郊公交充电站', '西站公交充电站')`,
  piles: `SELECT count(*)::int AS n FROM charging_pile WHERE charge_point_id LIKE 'DEPOT-%'`,
  guns: `SELECT count(*)::int AS n FROM charging_gun`,
  transformers: `SELECT count(*)::int AS n FROM box_transformer`,
  vehicles: `SELECT count(*)::int AS n FROM vehicle`,
  cards: `SELECT count(*)::int AS n FROM charging_card`,
  companies: `SELECT count(*)::int AS n FROM bus_company`,
  branches: `SELECT count(*)::int AS n FROM bus_branch`,
  fleets: `SELECT count(*)::int AS n FROM bus_fleet`,
  lines: `SELECT count(*)::int AS n FROM bus_line`,
  stationLabels: `SELECT count(*)::int AS n FROM station_label`,
  regions: `SELECT count(*)::int AS n FROM region`,
  labels: `SELECT count(*)::int AS n FROM asset_label`,
  manufacturers: `SELECT count(*)::int AS n FROM manufacturer`,
  defaultPlans: `SELECT count(*)::int AS n FROM price_plan WHERE is_default`,
  plans: `SELECT count(*)::int AS n FROM price_plan`,
  planStages: `SELECT count(*)::int AS n FROM price_plan_stage`,
  stationPlans: `SELECT count(*)::int AS n FROM station_price_plan`,
  activeRegistry: `SELECT count(*)::int AS n FROM pile_registry WHERE state = 'active' AND password_hash LIKE 'hmac-sha256$%'`,
  registry: `SELECT count(*)::int AS n FROM pile_registry`,
  acceptedTags: `SELECT count(*)::int AS n FROM id_tag WHERE status = 'Accepted'`,
  tags: `SELECT count(*)::int AS n FROM id_tag`,
  operators: `SELECT count(*)::int AS n FROM charging_operator`,
  parkingSpaces: `SELECT count(*)::int AS n FROM parking_space`,
  cameras: `SELECT count(*)::int AS n FROM camera`,
  alarmCodes: `SELECT count(*)::int AS n FROM alarm_code`,
  stopCodes: `SELECT count(*)::int AS n FROM stop_code`,
  personnel: `SELECT count(*)::int AS n FROM maintenance_personnel`,
  peakTimes: `SELECT count(*)::int AS n FROM peak_charging_time`,
  icCompanies: `SELECT count(*)::int AS n FROM ic_company`,
  icCustomers: `SELECT count(*)::int AS n FROM ic_customer`,
  icCards: `SELECT count(*)::int AS n FROM ic_card`,
  icActions: `SELECT count(*)::int AS n FROM ic_card_action`,
  ledgerAccounts: `SELECT count(*)::int AS n FROM ledger_account`,
  ledgerTransactions: `SELECT count(*)::int AS n FROM ledger_transaction`,
  ledgerEntries: `SELECT count(*)::int AS n FROM ledger_entry`,
  linkedCards: `SELECT count(*)::int AS n FROM ledger_card_account`,
  msgConfigs: `SELECT count(*)::int AS n FROM msg_config`,
  msgTemplates: `SELECT count(*)::int AS n FROM msg_template`,
  msgGroups: `SELECT count(*)::int AS n FROM msg_group`,
  msgRules: `SELECT count(*)::int AS n FROM msg_event`,
  msgAlerts: `SELECT count(*)::int AS n FROM msg_alert`,
  icAnnouncements: `SELECT count(*)::int AS n FROM outbox_event WHERE type = 'iccard.card.changed'`,
};

describe('demo depot seed', () => {
  let db: TestDatabase;

  async function counts(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const [name, sql] of Object.entries(COUNTS)) {
      const [{ n }] = (await db.dataSource.query(sql)) as { n: number }[];
      result[name] = n;
    }
    return result;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('seeds the depots as assets records and the gateway rows, and a second run changes nothing', async () => {
    await seedDemoDepot(db.dataSource);
    const first = await counts();
    expect(first).toMatchObject({
      stations: 2,
      piles: 20,
      guns: 40,
      transformers: 2,
      vehicles: 40,
      cards: 40,
      companies: 1,
      branches: 1,
      fleets: 2,
      lines: 4,
      stationLabels: 8,
      defaultPlans: 1,
      planStages: 7,
      stationPlans: 2,
      activeRegistry: 20,
      registry: 20,
      acceptedTags: 40,
      tags: 40,
      operators: 2,
      parkingSpaces: 40,
      cameras: 4,
      alarmCodes: 8,
      stopCodes: 8,
      personnel: 3,
      peakTimes: 7,
      icCompanies: 3,
      icCustomers: 14,
      icCards: 27,
      linkedCards: 26,
      msgConfigs: 2,
      msgTemplates: 5,
      msgGroups: 2,
      msgRules: 3,
      msgAlerts: 3,
    });
    const ids = await db.dataSource.query(
      `SELECT (SELECT array_agg(id ORDER BY id) FROM charging_pile) AS piles,
              (SELECT array_agg(id ORDER BY id) FROM charging_card) AS cards,
              (SELECT array_agg(password_hash ORDER BY charge_point_id) FROM pile_registry) AS hashes`,
    );
    const balances = await db.dataSource.query(`SELECT id, balance_fen FROM ledger_account ORDER BY id`);

    await seedDemoDepot(db.dataSource);
    // No second posting, no second action record: every balance is as it was.
    expect(await db.dataSource.query(`SELECT id, balance_fen FROM ledger_account ORDER BY id`)).toEqual(
      balances,
    );
    expect(await counts()).toEqual(first);
    expect(
      await db.dataSource.query(
        `SELECT (SELECT array_agg(id ORDER BY id) FROM charging_pile) AS piles,
                (SELECT array_agg(id ORDER BY id) FROM charging_card) AS cards,
                (SELECT array_agg(password_hash ORDER BY charge_point_id) FROM pile_registry) AS hashes`,
      ),
    ).toEqual(ids);
  });

  it('seeds IC cards whose money is real ledger postings: balances are the sums of their entries', async () => {
    // Every cached balance equals the sum of its account's entries; each transaction sums to zero.
    const drift = await db.dataSource.query(
      `SELECT a.id, a.kind, a.balance_fen, coalesce(sum(e.amount_fen), 0) AS entries
         FROM ledger_account a LEFT JOIN ledger_entry e ON e.account_id = a.id
        WHERE a.kind NOT IN ('cash', 'revenue')
        GROUP BY a.id HAVING a.balance_fen <> coalesce(sum(e.amount_fen), 0)`,
    );
    expect(drift).toEqual([]);
    const [{ unbalanced }] = (await db.dataSource.query(
      `SELECT count(*)::int AS unbalanced FROM (SELECT transaction_id FROM ledger_entry
         GROUP BY transaction_id HAVING sum(amount_fen) <> 0) t`,
    )) as { unbalanced: number }[];
    expect(unbalanced).toBe(0);
    // Every money movement is keyed 'demo:...' and dated over the last 30 days, not all now.
    const [tx] = (await db.dataSource.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE idempotency_key LIKE 'demo:%')::int AS demo,
              count(DISTINCT occurred_at::date)::int AS days,
              bool_and(occurred_at BETWEEN now() - interval '31 days' AND now()) AS recent,
              array_agg(DISTINCT kind ORDER BY kind) AS kinds
         FROM ledger_transaction`,
    )) as { n: number; demo: number; days: number; recent: boolean; kinds: string[] }[];
    expect(tx).toMatchObject({ demo: tx.n, recent: true, kinds: ['allocation', 'recharge', 'refund'] });
    expect(tx.days).toBeGreaterThanOrEqual(10);

    // Cards in several statuses, of both chips; the bus cards are group drivers' sub-account cards.
    const statuses = (await db.dataSource.query(
      `SELECT status, array_agg(DISTINCT chip ORDER BY chip) AS chips, count(*)::int AS n
         FROM ic_card GROUP BY status ORDER BY status`,
    )) as { status: string; chips: string[]; n: number }[];
    expect(statuses.map((s) => s.status)).toEqual(['cancelled', 'lost', 'normal', 'notMade']);
    expect(statuses.find((s) => s.status === 'normal')?.chips).toEqual(['CPU', 'M1']);
    const busIc = (await db.dataSource.query(
      `SELECT k.card_no, u.client_type, a.kind, a.balance_fen, l.account_id = a.id AS linked
         FROM ic_card k JOIN ic_customer u ON u.id = k.customer_id
         JOIN ledger_account a ON a.id = k.ledger_account_id
         LEFT JOIN ledger_card_account l ON l.id_tag = k.card_no
        WHERE k.card_no = ANY($1) ORDER BY k.card_no`,
      [busCards()],
    )) as { card_no: string; client_type: number; kind: string; balance_fen: string; linked: boolean }[];
    expect(busIc).toHaveLength(15);
    const drivers = busIc.filter((c) => c.card_no !== 'BUS0040');
    expect(drivers.every((c) => c.client_type === 3 && c.kind === 'group_sub' && c.linked)).toBe(true);
    // Enough for many evenings of charging (a bus draws a few hundred yuan a session).
    expect(drivers.every((c) => Number(c.balance_fen) >= 5_000_000)).toBe(true);
    // The contracted driver's card is nearly empty: its first order blocks it at the pile.
    expect(busIc.find((c) => c.card_no === 'BUS0040')).toMatchObject({
      client_type: 1,
      kind: 'personal',
      balance_fen: '1500',
      linked: true,
    });
    // Two groups of 3-4 drivers, each driver's account under the group's.
    const groups = (await db.dataSource.query(
      `SELECT g.user_name, count(m.id)::int AS members,
              bool_and(sa.parent_id = g.ledger_account_id) AS sub_accounts
         FROM ic_customer g JOIN ic_customer m ON m.group_id = g.id
         JOIN ledger_account sa ON sa.id = m.ledger_account_id
        WHERE g.client_type = 2 GROUP BY g.id ORDER BY g.id`,
    )) as { user_name: string; members: number; sub_accounts: boolean }[];
    expect(groups).toEqual([
      { user_name: '合肥公交集团第一车队', members: 4, sub_accounts: true },
      { user_name: '合肥公交集团第二车队', members: 3, sub_accounts: true },
    ]);

    // Each card's action records replay the state machine from notMade to its status.
    const cards = (await db.dataSource.query(
      `SELECT k.card_no, k.chip, k.status, k.ledger_account_id,
              json_agg(json_build_object('action', x.action, 'before', x.status_before, 'after', x.status_after,
                'amount', x.amount_fen, 'tx', x.ledger_transaction_id) ORDER BY x.occurred_at, x.id)
                FILTER (WHERE x.id IS NOT NULL) AS actions
         FROM ic_card k LEFT JOIN ic_card_action x ON x.card_id = k.id GROUP BY k.id`,
    )) as {
      card_no: string;
      chip: 'CPU' | 'M1';
      status: CardStatus;
      actions:
        | {
            action: IcCardAction;
            before: CardStatus;
            after: CardStatus;
            amount: number | null;
            tx: number | null;
          }[]
        | null;
    }[];
    for (const card of cards) {
      let status: CardStatus = 'notMade';
      for (const a of card.actions ?? []) {
        expect(`${card.card_no} ${a.action} from ${a.before}`).toBe(
          `${card.card_no} ${a.action} from ${status}`,
        );
        const allowed = cardTransition(status, a.action, {
          chip: card.chip,
          cardNo: card.card_no,
          balanceFen: a.action === 'logout' ? 0 : 1,
          presentedCardNo: card.card_no,
          registeredIdNumber: 'x',
          presentedIdNumber: 'x',
          rechargeFen: a.action === 'recharge' ? 1 : undefined,
          refundFen: a.action === 'recharge' || a.action === 'logout' ? undefined : 1,
        });
        expect(allowed.ok && allowed.status).toBe(a.after);
        // Money actions carry their ledger transaction; the rest none.
        expect(a.tx !== null).toBe(['recharge', 'refundWithCard', 'refundWithoutCard'].includes(a.action));
        status = a.after;
      }
      expect(`${card.card_no} ${card.status}`).toBe(`${card.card_no} ${status}`);
    }

    // Each card was announced to the pile (iccard.card.changed): its latest announcement is its status.
    const announced = (await db.dataSource.query(
      `SELECT DISTINCT ON (key) key AS card_no, payload->>'status' AS status FROM outbox_event
        WHERE type = 'iccard.card.changed' ORDER BY key, (payload->>'sequence')::bigint DESC`,
    )) as { card_no: string; status: CardStatus }[];
    expect(Object.fromEntries(announced.map((a) => [a.card_no, a.status]))).toEqual(
      Object.fromEntries(cards.map((c) => [c.card_no, c.status])),
    );
  });

  it('seeds the message centre: configs, templates, receiver groups, event rules and alerts, all local', async () => {
    const rules = (await db.dataSource.query(
      `SELECT e.name, e.event_type, e.condition, e.channels, e.enabled, t.template_name, g.name AS group_name,
              g.type AS group_type, cardinality(g.member_ids) AS members
         FROM msg_event e LEFT JOIN msg_template t ON t.id = e.template_id JOIN msg_group g ON g.id = e.group_id
        ORDER BY e.id`,
    )) as Record<string, unknown>[];
    expect(rules.slice(0, 2)).toEqual([
      expect.objectContaining({
        event_type: 'transaction.stopped',
        condition: { stopKind: 'abnormal' },
        channels: [4],
        enabled: true,
        template_name: '充电异常停止通知',
        group_type: 'ROLE',
        members: 2,
      }),
      expect.objectContaining({
        event_type: 'pile.error',
        channels: [4],
        enabled: true,
        template_name: '充电桩故障通知',
        group_type: 'ROLE',
        members: 2,
      }),
    ]);
    const templates = (await db.dataSource.query(`SELECT template_name FROM msg_template`)) as {
      template_name: string;
    }[];
    expect(templates.map((t) => t.template_name)).toEqual(
      expect.arrayContaining(['充电异常停止通知', 'IC 卡余额不足提醒', 'IC 卡余额不足邮件']),
    );
    // No real secrets and no host but this machine.
    const [email] = (await db.dataSource.query(
      `SELECT settings FROM msg_config WHERE channel = 'EMAIL'`,
    )) as {
      settings: Record<string, unknown>;
    }[];
    expect(email.settings).toMatchObject({ host: '127.0.0.1' });
    expect(email.settings).not.toHaveProperty('password');
    const targets = (await db.dataSource.query(`SELECT target FROM msg_alert`)) as { target: string }[];
    for (const { target } of targets)
      expect(target).toMatch(/^(http:\/\/127\.0\.0\.1[:/]|127\.0\.0\.1:|local#)/);
  });

  it('gives both stations the default plan from the epoch and puts everything under the HF depot', async () => {
    const plans = (await db.dataSource.query(
      `SELECT s.name, s.status, s.latitude::float8 AS latitude, s.longitude::float8 AS longitude,
              spp.effective_from = 'epoch' AS from_epoch, p.is_default
         FROM station s JOIN station_price_plan spp ON spp.station_id = s.id JOIN price_plan p ON p.id = spp.plan_id
        ORDER BY s.number`,
    )) as Record<string, unknown>[];
    expect(plans).toEqual([
      {
        name: '东郊公交充电站',
        status: 0,
        latitude: 31.82,
        longitude: 117.23,
        from_epoch: true,
        is_default: true,
      },
      {
        name: '西站公交充电站',
        status: 0,
        latitude: 31.86,
        longitude: 117.18,
        from_epoch: true,
        is_default: true,
      },
    ]);
    const [{ outside }] = (await db.dataSource.query(
      `SELECT count(*)::int AS outside FROM (
         SELECT organization_id FROM bus_company UNION ALL SELECT organization_id FROM bus_fleet
         UNION ALL SELECT organization_id FROM bus_line UNION ALL SELECT organization_id FROM station
         UNION ALL SELECT organization_id FROM box_transformer UNION ALL SELECT organization_id FROM charging_pile
         UNION ALL SELECT organization_id FROM charging_gun UNION ALL SELECT organization_id FROM vehicle
         UNION ALL SELECT organization_id FROM charging_card) t
        WHERE organization_id <> (SELECT id FROM sys_organization WHERE code = 'HF')`,
    )) as { outside: number }[];
    expect(outside).toBe(0);
  });

  it('charges occupation fees at 东郊 only, and turns them on for an untouched depot seeded before', async () => {
    const fees = async () =>
      (await db.dataSource.query(
        `SELECT number, occupation_fee_enabled AS enabled, free_parking_minutes AS free FROM station ORDER BY number`,
      )) as { number: string; enabled: boolean; free: number }[];
    expect(await fees()).toEqual([
      { number: 'HF-DEPOT-A', enabled: true, free: 15 },
      { number: 'HF-DEPOT-B', enabled: false, free: 120 },
    ]);
    // As an earlier seed left it (fees off, two free hours), never edited: the seed turns the fees on.
    await db.dataSource.query(
      `UPDATE station SET occupation_fee_enabled = false, free_parking_minutes = 120 WHERE number = 'HF-DEPOT-A'`,
    );
    await seedDemoDepot(db.dataSource);
    expect((await fees())[0]).toEqual({ number: 'HF-DEPOT-A', enabled: true, free: 15 });
    // Switched off in the console (which bumps updated_at): the seed leaves it off.
    await db.dataSource.query(
      `UPDATE station SET occupation_fee_enabled = false, updated_at = now() + interval '1 second'
        WHERE number = 'HF-DEPOT-A'`,
    );
    await seedDemoDepot(db.dataSource);
    expect((await fees())[0]).toEqual({ number: 'HF-DEPOT-A', enabled: false, free: 15 });
  });

  it('fills every basic-data grid, so no dropdown fed by one is empty', async () => {
    const empty: string[] = [];
    for (const def of ASSET_DEFINITIONS) {
      const [{ n }] = (await db.dataSource.query(`SELECT count(*)::int AS n FROM ${def.table}`)) as {
        n: number;
      }[];
      if (n === 0) empty.push(`${def.kind} (${def.table}): ${n}`);
    }
    expect(empty).toEqual([]);
    // Every fault the simulated piles report is a known alarm code, every stop reason a stop code.
    const codes = (await db.dataSource.query(
      `SELECT code FROM alarm_code WHERE protocol_type = 'ocpp1.6'`,
    )) as { code: string }[];
    expect(codes.map((c) => c.code)).toEqual(expect.arrayContaining(DEMO_FAULTS));
    const stops = (await db.dataSource.query(
      `SELECT code, normal FROM stop_code WHERE protocol_type = 'ocpp1.6' AND code IN ('Local', 'EmergencyStop')`,
    )) as { code: string; normal: boolean }[];
    expect(stops.sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { code: 'EmergencyStop', normal: false },
      { code: 'Local', normal: true },
    ]);
    // Each gun has its bus bay; the station's operator is a seeded operator.
    const [bays] = (await db.dataSource.query(
      `SELECT count(*)::int AS guns, count(ps.id)::int AS bays FROM charging_gun g
         LEFT JOIN parking_space ps ON ps.gun_id = g.id`,
    )) as { guns: number; bays: number }[];
    expect(bays).toEqual({ guns: 40, bays: 40 });
    const [{ unowned }] = (await db.dataSource.query(
      `SELECT count(*)::int AS unowned FROM station WHERE operator_id IS NULL`,
    )) as { unowned: number }[];
    expect(unowned).toBe(0);
    // Each depot carries its site plan (a PNG) and its area, which place the plan on the map.
    const plans = (await db.dataSource.query(
      `SELECT s.number, s.area_sqm, p.content_type, substring(p.data FROM 1 FOR 4) AS magic
         FROM station s JOIN station_picture p ON p.station_id = s.id AND p.site_plan ORDER BY s.number`,
    )) as { number: string; area_sqm: number; content_type: string; magic: Buffer }[];
    expect(plans.map((p) => [p.number, p.content_type, p.magic.toString('latin1')])).toEqual([
      ['HF-DEPOT-A', 'image/png', '\x89PNG'],
      ['HF-DEPOT-B', 'image/png', '\x89PNG'],
    ]);
    expect(plans.every((p) => p.area_sqm > 10_000)).toBe(true);
  });

  it('types the depot chargers as the DC piles they are: type, power, connectors and transformer agree', async () => {
    expect(CHARGER_TYPE_LABELS[CHARGER_TYPE_DC]['en-US']).toBe('Direct current (DC)');
    const piles = (await db.dataSource.query(
      `SELECT p.type, p.rated_power_w, p.max_power_w, p.gun_count,
              array_agg(DISTINCT g.connector_type) AS connectors, sum(g.rated_power_w)::int AS gun_power,
              t.capacity_kva
         FROM charging_pile p JOIN charging_gun g ON g.pile_id = p.id
         LEFT JOIN box_transformer t ON t.id = p.transformer_id
        GROUP BY p.id, t.capacity_kva`,
    )) as {
      type: number;
      rated_power_w: number;
      max_power_w: number;
      connectors: number[];
      gun_power: number;
      capacity_kva: number | null;
    }[];
    expect(piles).toHaveLength(20);
    for (const pile of piles) {
      // Above 44 kW (a three-phase 63 A socket) a charger is DC, and DC piles have DC guns.
      expect(pile.type).toBe(CHARGER_TYPE_DC);
      expect(pile.rated_power_w).toBeGreaterThan(44_000);
      expect(pile.connectors.map((c) => CONNECTOR_TYPE_LABELS[c as 4]['en-US'])).toEqual(['DC gun']);
      expect(pile.gun_power).toBe(pile.rated_power_w);
      expect(pile.capacity_kva).not.toBeNull();
    }
    // A box transformer carries what its piles may draw together.
    const transformers = (await db.dataSource.query(
      `SELECT t.capacity_kva * 1000 AS capacity_va, sum(p.max_power_w)::int AS connected_w
         FROM box_transformer t JOIN charging_pile p ON p.transformer_id = t.id GROUP BY t.id`,
    )) as { capacity_va: number; connected_w: number }[];
    expect(transformers).toHaveLength(2);
    for (const t of transformers) expect(Number(t.connected_w)).toBeLessThanOrEqual(Number(t.capacity_va));
  });

  it('corrects what an earlier seed left wrong on records nobody edited since: AC type, no day charging', async () => {
    await db.dataSource.query(`UPDATE charging_pile SET type = 1 WHERE charge_point_id = 'DEPOT-A-01'`);
    await db.dataSource.query(
      `UPDATE charging_pile SET type = 1, updated_at = now() + interval '1 second' WHERE charge_point_id = 'DEPOT-A-02'`,
    );
    await db.dataSource.query(`UPDATE vehicle SET day_charging = false WHERE vin = $1`, [
      demoVehicles()[0].vin,
    ]);
    await seedDemoDepot(db.dataSource);
    const types = (await db.dataSource.query(
      `SELECT charge_point_id, type FROM charging_pile WHERE charge_point_id IN ('DEPOT-A-01', 'DEPOT-A-02')
        ORDER BY 1`,
    )) as { charge_point_id: string; type: number }[];
    // An edited pile keeps what its editor chose.
    expect(types).toEqual([
      { charge_point_id: 'DEPOT-A-01', type: CHARGER_TYPE_DC },
      { charge_point_id: 'DEPOT-A-02', type: 1 },
    ]);
    const [{ day }] = (await db.dataSource.query(`SELECT day_charging AS day FROM vehicle WHERE vin = $1`, [
      demoVehicles()[0].vin,
    ])) as { day: boolean }[];
    expect(day).toBe(true);
    await db.dataSource.query(`UPDATE charging_pile SET type = 0 WHERE charge_point_id = 'DEPOT-A-02'`);
  });

  it('keeps the ids the simulation uses: pile passwords, bus cards and well-formed vehicles', async () => {
    const registry = (await db.dataSource.query(
      `SELECT r.charge_point_id, r.password_hash, p.ocpp_password_hash, p.device_status, p.gun_count
         FROM pile_registry r JOIN charging_pile p USING (charge_point_id) ORDER BY r.charge_point_id`,
    )) as Record<string, unknown>[];
    expect(registry.map((r) => r['charge_point_id'])).toEqual([...pileIds()].sort());
    for (const row of registry) {
      expect(row).toMatchObject({
        device_status: 50,
        gun_count: 2,
        password_hash: row['ocpp_password_hash'],
      });
    }
    const check = await pilePasswordHasherFromEnv().verify(
      String(registry[0]['password_hash']),
      DEMO_PILE_PASSWORD,
    );
    expect(check).toEqual({ match: true });

    const guns = (await db.dataSource.query(
      `SELECT array_agg(channel_number ORDER BY channel_number) AS channels FROM charging_gun GROUP BY pile_id`,
    )) as { channels: number[] }[];
    expect(guns.every((g) => g.channels.join() === '1,2')).toBe(true);

    const cards = (await db.dataSource.query(
      `SELECT c.physical_number, c.status, c.type, t.status AS tag_status, v.plate
         FROM charging_card c JOIN id_tag t ON t.id_tag = c.physical_number
         LEFT JOIN vehicle v ON v.id = c.vehicle_id ORDER BY c.physical_number`,
    )) as Record<string, unknown>[];
    expect(cards.map((c) => c['physical_number'])).toEqual(busCards());
    expect(cards.every((c) => c['status'] === 'normal' && c['tag_status'] === 'Accepted')).toBe(true);
    // Each card is issued to its own bus.
    const plateOf = new Map(demoVehicles().map((v) => [v.card, v.plate]));
    expect(cards.map((c) => c['plate'])).toEqual(cards.map((c) => plateOf.get(String(c['physical_number']))));

    const vehicles = (await db.dataSource.query(
      `SELECT vin, plate, battery_capacity_wh FROM vehicle ORDER BY vin`,
    )) as { vin: string; plate: string; battery_capacity_wh: number }[];
    expect(vehicles.map((v) => v.plate)).toEqual(demoVehicles().map((v) => v.plate));
    for (const v of vehicles) {
      expect(v.vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(v.plate).toMatch(/^皖A·D\d{4}$/);
      expect(v.battery_capacity_wh).toBeGreaterThanOrEqual(280_000);
      expect(v.battery_capacity_wh).toBeLessThanOrEqual(420_000);
    }
  });
});
