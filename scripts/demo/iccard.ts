/**
 * The demo's IC cards and accounts (issue #25, docs/ic-cards.md "Demo data"): three Hefei transport
 * companies, personal customers and two bus-fleet groups with their drivers' sub-accounts, CPU and M1
 * cards in several statuses with their action records, recharges, a refund, a log-out, allocations from
 * the groups to their drivers, spread over the last 30 days.
 *
 * The money goes through the ledger's own code (`LedgerService` over `LedgerRepository`): accounts are
 * opened, cards linked and every movement posted as the api does, each posting under a `demo:...`
 * idempotency key, so a second run posts nothing. Card actions are judged by the state machine
 * (`cardTransition`) before they are recorded, like `CardActionsService` does, and recorded, their status
 * written and announced (`iccard.card.changed`) by the IC-card area's own `IcCardRepository` and
 * `CardAnnouncerWriter` in one transaction; then dated in the past (the service's records always say now),
 * the ledger postings with them (`occurredAt`). A card is announced when it is registered and when a step
 * changes its status, never again on a later start: a charging card edited on the grid keeps its edit.
 *
 * Fourteen of the demo buses' cards are the group drivers' IC cards (same number): their charging orders
 * are debited from the drivers' sub-accounts when the ledger worker consumes `order.settled`. BUS0040 is
 * a contracted driver's personal card with 15 yuan on it: its first order runs it into arrears and the
 * piles then answer it Blocked.
 */
import { createHash } from 'node:crypto';
import { LedgerRepository, LedgerService, CardAuthorisationWriter } from '@voltdepot/server-ledger';
import { CardAnnouncerWriter, IcCardRepository } from '@voltdepot/server-iccard';
import { cardTransition, type CardStatus, type IcCardAction } from '@voltdepot/shared-contracts';
import type { DataSource } from 'typeorm';
import { ensure } from './seed-row';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const yuan = (amount: number) => Math.round(amount * 100);

type Company = { number: string; name: string; contacts: string; contactInformation: string };

export const DEMO_IC_COMPANIES: Company[] = [
  {
    number: 'HFIC-01',
    name: '合肥公交集团有限公司',
    contacts: '孙建国',
    contactInformation: '0551-63612345',
  },
  {
    number: 'HFIC-02',
    name: '合肥城市客运有限公司',
    contacts: '吴海燕',
    contactInformation: '0551-64281166',
  },
  {
    number: 'HFIC-03',
    name: '合肥长运交通运输有限公司',
    contacts: '马立新',
    contactInformation: '0551-62165888',
  },
];

type Customer = {
  key: string;
  clientType: 1 | 2 | 3;
  group?: string;
  userName: string;
  certificateType: string;
  customerType: string;
  phone: string;
  company: string;
  gender: 0 | 1 | null;
  address: string;
  /** Days ago the customer was registered. */
  since: number;
};

const person = (
  key: string,
  userName: string,
  gender: 0 | 1,
  phone: string,
  company: string,
  since: number,
  group?: string,
): Customer => ({
  key,
  clientType: group ? 3 : 1,
  group,
  userName,
  certificateType: '居民身份证',
  customerType: group ? '集团员工' : '个人',
  phone,
  company,
  gender,
  address: '安徽省合肥市',
  since,
});

const fleet = (key: string, userName: string, phone: string, address: string, since: number): Customer => ({
  key,
  clientType: 2,
  userName,
  certificateType: '统一社会信用代码',
  customerType: '单位',
  phone,
  company: 'HFIC-01',
  gender: null,
  address,
  since,
});

/** Customers by certificate number (their natural key); groups before their members. */
export const DEMO_IC_CUSTOMERS: Customer[] = [
  fleet('91340100MA2N8G0T1K', '合肥公交集团第一车队', '0551-63612301', '安徽省合肥市瑶海区东二环路 1 号', 30),
  fleet('91340100MA2N8G0T2M', '合肥公交集团第二车队', '0551-63612302', '安徽省合肥市蜀山区长江西路 8 号', 29),
  person('340102198003150517', '张建华', 0, '13956012301', 'HFIC-01', 29, '91340100MA2N8G0T1K'),
  person('340103197811220534', '刘德明', 0, '13956012302', 'HFIC-01', 29, '91340100MA2N8G0T1K'),
  person('340104198507081526', '何玉兰', 1, '13956012303', 'HFIC-01', 29, '91340100MA2N8G0T1K'),
  person('340111198203300512', '孙志刚', 0, '13956012304', 'HFIC-01', 29, '91340100MA2N8G0T1K'),
  person('340121197906121518', '钱国强', 0, '13956012321', 'HFIC-01', 28, '91340100MA2N8G0T2M'),
  person('340122198811043022', '冯晓梅', 1, '13956012322', 'HFIC-01', 28, '91340100MA2N8G0T2M'),
  person('340123198108273013', '许长江', 0, '13956012323', 'HFIC-01', 28, '91340100MA2N8G0T2M'),
  person('340104199003126020', '王芳', 1, '13805516688', 'HFIC-02', 30, undefined),
  person('34010219870519451X', '李强', 0, '13705519032', 'HFIC-02', 26, undefined),
  person('340103199212254028', '陈静', 1, '18955106217', 'HFIC-02', 23, undefined),
  person('340111199505173011', '杨帆', 0, '15305512876', 'HFIC-03', 19, undefined),
  // A contracted driver of a customised bus line: his bus (BUS0040) charges at the depot on his card.
  person('340121198406226519', '周立平', 0, '13655607741', 'HFIC-03', 21, undefined),
];

/** A step on a card: the action, when (days ago and business hour), the amount in yuan. */
type CardStep = [action: IcCardAction, daysAgo: number, hour: number, amountYuan?: number];

type Card = {
  cardNo: string;
  chip: 'CPU' | 'M1';
  /** Basic-data card type: 0 driver, 1 consumer, 2 management (a group's office card), 3 charging (a bus). */
  cardType: 0 | 1 | 2 | 3;
  customer: string;
  steps: CardStep[];
};

const icCard = (
  cardNo: string,
  chip: Card['chip'],
  cardType: Card['cardType'],
  customer: string,
  ...steps: CardStep[]
): Card => ({ cardNo, chip, cardType, customer, steps });

const busCard = (cardNo: string, customer: string, madeDaysAgo: number) =>
  icCard(cardNo, 'CPU', 3, customer, ['makeCpu', madeDaysAgo, 10]);

export const DEMO_IC_CARDS: Card[] = [
  // The groups' office cards: the fleets' money comes in through them.
  icCard(
    'HFC20250101',
    'CPU',
    2,
    '91340100MA2N8G0T1K',
    ['makeCpu', 29, 9],
    ['recharge', 29, 9.5, 200_000],
    ['recharge', 8, 14, 100_000],
  ),
  icCard(
    'HFC20250102',
    'CPU',
    2,
    '91340100MA2N8G0T2M',
    ['makeCpu', 28, 9],
    ['recharge', 28, 9.5, 150_000],
    ['recharge', 7, 15, 80_000],
  ),
  // The group drivers' bus cards: the numbers the demo's piles send.
  busCard('BUS0001', '340102198003150517', 27),
  busCard('BUS0002', '340102198003150517', 27),
  busCard('BUS0003', '340103197811220534', 27),
  busCard('BUS0004', '340103197811220534', 27),
  busCard('BUS0005', '340104198507081526', 27),
  busCard('BUS0006', '340104198507081526', 27),
  busCard('BUS0007', '340111198203300512', 27),
  busCard('BUS0008', '340111198203300512', 27),
  busCard('BUS0021', '340121197906121518', 26),
  busCard('BUS0022', '340121197906121518', 26),
  busCard('BUS0023', '340122198811043022', 26),
  busCard('BUS0024', '340122198811043022', 26),
  busCard('BUS0025', '340123198108273013', 26),
  busCard('BUS0026', '340123198108273013', 26),
  // The drivers' own cards (type 0): they identify the driver at the pile and draw on the same sub-account.
  icCard('HFD20250001', 'M1', 0, '340102198003150517', ['makeM1', 25, 11]),
  icCard('HFD20250002', 'M1', 0, '340103197811220534', ['makeM1', 25, 11]),
  icCard('HFD20250003', 'M1', 0, '340104198507081526', ['makeM1', 25, 11]),
  icCard('HFD20250004', 'M1', 0, '340121197906121518', ['makeM1', 25, 11]),
  icCard('HFD20250005', 'M1', 0, '340122198811043022', ['makeM1', 25, 11]),
  // Personal cards.
  icCard(
    'HFC20250001',
    'CPU',
    1,
    '340104199003126020',
    ['makeCpu', 29, 10],
    ['recharge', 29, 10.2, 500],
    ['recharge', 15, 16, 300],
    ['refundWithCard', 6, 11, 200],
  ),
  icCard(
    'HFM20250001',
    'M1',
    1,
    '34010219870519451X',
    ['makeM1', 25, 11],
    ['recharge', 25, 11.2, 300],
    ['reportLoss', 4, 9],
  ),
  // The replacement for 李强's lost card: registered, not made yet.
  icCard('HFM20250002', 'M1', 1, '34010219870519451X'),
  icCard(
    'HFC20250002',
    'CPU',
    1,
    '340103199212254028',
    ['makeCpu', 22, 14],
    ['recharge', 22, 14.2, 100],
    ['refundWithCard', 12, 10],
    ['logout', 12, 10.1],
  ),
  icCard(
    'HFM20250003',
    'M1',
    1,
    '340111199505173011',
    ['makeM1', 18, 15],
    ['recharge', 18, 15.2, 200],
    ['recharge', 2, 17, 150],
  ),
  // A contracted driver's personal card with 15 yuan: its first order runs it into arrears.
  icCard('BUS0040', 'CPU', 3, '340121198406226519', ['makeCpu', 20, 16], ['recharge', 20, 16.2, 15]),
];

/** Allocations from a group to its drivers: member, days ago, hour, yuan. */
export const DEMO_IC_ALLOCATIONS: [member: string, daysAgo: number, hour: number, amountYuan: number][] = [
  ...['340102198003150517', '340103197811220534', '340104198507081526', '340111198203300512'].flatMap(
    (m, i): [string, number, number, number][] => [
      [m, 28, 10 + i * 0.1, 40_000],
      [m, 8, 15 + i * 0.1, 20_000],
    ],
  ),
  ...['340121197906121518', '340122198811043022', '340123198108273013'].flatMap(
    (m, i): [string, number, number, number][] => [
      [m, 27, 10 + i * 0.1, 40_000],
      [m, 7, 16 + i * 0.1, 20_000],
    ],
  ),
];

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** `daysAgo` days before today (business time zone, UTC+8 for Hefei) at `hour` o'clock. */
function dayTime(now: number, daysAgo: number, hour: number): Date {
  const offset = 8 * HOUR;
  const today = Math.floor((now + offset) / DAY) * DAY - offset;
  return new Date(today - daysAgo * DAY + Math.round(hour * HOUR));
}

/**
 * Seeds the IC-card demo (idempotent: records by natural key, money by idempotency key, each action by its
 * key). A card someone has operated in the console since, so that the next step is no longer allowed, keeps
 * its state: its remaining steps are skipped.
 */
export async function seedDemoIcCards(dataSource: DataSource, now = Date.now()): Promise<void> {
  const minimumBalanceFen = Number(process.env['LEDGER_MINIMUM_BALANCE_FEN'] || 1);
  const ledger = new LedgerService(
    new LedgerRepository(dataSource, new CardAuthorisationWriter(minimumBalanceFen)),
    { minimumBalanceFen },
  );
  const m = dataSource.manager;
  const [organization] = (await m.query(
    `SELECT id FROM sys_organization WHERE code IN ('HF', 'ROOT') ORDER BY code = 'HF' DESC LIMIT 1`,
  )) as { id: number }[];
  if (!organization) throw new Error(`no 'HF' or 'ROOT' organisation: run the migrations first`);
  const organizationId = Number(organization.id);
  // The card office's operator: the demo administrator once the api has created it, else 0 (the system).
  const [operator] = (await m.query(`SELECT id FROM sys_user WHERE lower(username) = 'admin'`)) as {
    id: number;
  }[];
  const operatorId = operator ? Number(operator.id) : 0;

  const companyIds = new Map<string, number>();
  for (const c of DEMO_IC_COMPANIES) {
    const { id } = await ensure(m, 'ic_company', { number: c.number }, () => ({
      name: c.name,
      contacts: c.contacts,
      contact_information: c.contactInformation,
      organization_id: organizationId,
      created_at: dayTime(now, 30, 9),
      updated_at: dayTime(now, 30, 9),
    }));
    companyIds.set(c.number, id);
  }

  const customers = new Map<string, { id: number; accountId: number; certificate: string }>();
  for (const c of DEMO_IC_CUSTOMERS) {
    const group = c.group ? customers.get(c.group) : undefined;
    const registered = dayTime(now, c.since, 9);
    const { id } = await ensure(
      m,
      'ic_customer',
      { certificate_number: c.key, client_type: c.clientType },
      () => ({
        organization_id: organizationId,
        group_id: group?.id ?? null,
        user_name: c.userName,
        certificate_type: c.certificateType,
        customer_type: c.customerType,
        phone: c.phone,
        company_id: companyIds.get(c.company) ?? null,
        gender: c.gender,
        nation: c.clientType === 2 ? null : '汉族',
        address: c.address,
        identity_verified: true,
        created_at: registered,
        updated_at: registered,
      }),
    );
    // Its account as the api opens it (IcCardService: personal, group, or a sub-account of the group's).
    const [row] = (await m.query(`SELECT ledger_account_id FROM ic_customer WHERE id = $1`, [id])) as {
      ledger_account_id: number | null;
    }[];
    let accountId = row.ledger_account_id === null ? undefined : Number(row.ledger_account_id);
    if (accountId === undefined) {
      const kind = c.clientType === 1 ? 'personal' : c.clientType === 2 ? 'group' : 'group_sub';
      const [opened] = (await m.query(
        `SELECT id FROM ledger_account WHERE customer_id = $1 AND kind = $2 ORDER BY id LIMIT 1`,
        [id, kind],
      )) as { id: number }[];
      accountId = opened
        ? Number(opened.id)
        : (
            await ledger.openAccount({
              kind,
              name: c.userName,
              parentId: group?.accountId ?? null,
              customerId: id,
              companyId: companyIds.get(c.company) ?? null,
            })
          ).id;
      await m.query(`UPDATE ic_customer SET ledger_account_id = $2 WHERE id = $1`, [id, accountId]);
    }
    customers.set(c.key, { id, accountId, certificate: c.key });
  }

  // A card's records, status and announcement (iccard.card.changed through the outbox: the assets area
  // keeps the charging card, so a made card is Accepted at the pile and a lost one Blocked) are written
  // by the IC-card area's own repository and announcer, like the api's; only when a card changes.
  const cards = new IcCardRepository(dataSource);
  const announcer = new CardAnnouncerWriter();

  // Every movement in the order it happened, so each balance before and after reads as a history.
  type Step = { at: Date; run: () => Promise<void> };
  const steps: Step[] = [];
  const posted = async (key: string) =>
    (
      (await m.query(`SELECT id FROM ledger_transaction WHERE idempotency_key = $1`, [key])) as {
        id: number;
      }[]
    )[0];

  for (const card of DEMO_IC_CARDS) {
    const holder = customers.get(card.customer)!;
    const firstAt = card.steps.length
      ? dayTime(now, card.steps[0][1], card.steps[0][2])
      : dayTime(now, 3, 10);
    // A new card is announced in the transaction that registers it, as IcCardService does; an existing
    // one is not announced again (its charging card, edited on the grid since, stays as it is).
    const cardId = await m.transaction(async (t) => {
      const { id, created } = await ensure(t, 'ic_card', { card_no: card.cardNo }, () => ({
        chip: card.chip,
        card_type: card.cardType,
        customer_id: holder.id,
        ledger_account_id: holder.accountId,
        issued_at: firstAt,
        updated_at: firstAt,
      }));
      if (created) await announcer.announce(t, card.cardNo);
      return id;
    });
    let skipped = false;
    for (const [n, [action, daysAgo, hour, amountYuan]] of card.steps.entries()) {
      const at = dayTime(now, daysAgo, hour);
      const key = `demo:${action}:${card.cardNo}:${n + 1}`;
      steps.push({
        at,
        run: async () => {
          if (skipped) return;
          if (await cards.actionByKey(m, key)) return;
          const [state] = (await m.query(`SELECT status FROM ic_card WHERE id = $1`, [cardId])) as {
            status: CardStatus;
          }[];
          const balanceFen = (await ledger.account(holder.accountId)).balanceFen;
          const amountFen = amountYuan === undefined ? undefined : yuan(amountYuan);
          const transition = cardTransition(state.status, action, {
            chip: card.chip,
            cardNo: card.cardNo,
            balanceFen,
            // The office has the card in the reader, or the holder's certificate, as the action asks.
            presentedCardNo: card.cardNo,
            registeredIdNumber: holder.certificate,
            presentedIdNumber: holder.certificate,
            rechargeFen: action === 'recharge' ? amountFen : undefined,
            refundFen: action === 'recharge' ? undefined : amountFen,
          });
          if (!transition.ok) {
            skipped = true;
            return;
          }
          const meta = {
            idempotencyKey: key,
            operatorId,
            reference: `card:${card.cardNo}`,
            memo: action,
            occurredAt: at,
          };
          let transactionId: number | null = null;
          let moved: number | null = null;
          if (action === 'recharge' || action === 'refundWithCard' || action === 'refundWithoutCard') {
            const done = await posted(key);
            if (done) transactionId = Number(done.id);
            else {
              const tx =
                action === 'recharge'
                  ? await ledger.recharge({ ...meta, accountId: holder.accountId, amountFen: amountFen! })
                  : await ledger.refund({ ...meta, accountId: holder.accountId, amountFen });
              transactionId = tx.id;
            }
            const [entry] = (await m.query(
              `SELECT amount_fen FROM ledger_entry WHERE transaction_id = $1 AND account_id = $2`,
              [transactionId, holder.accountId],
            )) as { amount_fen: string }[];
            moved = action === 'recharge' ? amountFen! : entry ? Number(entry.amount_fen) : null;
          }
          if (action === 'makeCpu' || action === 'makeM1')
            await ledger.linkCard(card.cardNo, holder.accountId);
          // Recorded as CardActionsService records it (the same repository, dated when it happened; the
          // status written and announced in the action's transaction).
          await m.transaction(async (t) => {
            await cards.insertAction(t, {
              cardId,
              action,
              statusBefore: state.status,
              statusAfter: transition.status,
              notes: transition.notes,
              amountFen: moved,
              ledgerTransactionId: transactionId,
              operatorId,
              idempotencyKey: key,
              requestHash: sha256({ cardNo: card.cardNo, action, amount: amountFen ?? null }),
              occurredAt: at,
            });
            if (transition.status !== state.status) {
              await cards.setCardStatus(t, cardId, transition.status);
              await announcer.announce(t, card.cardNo);
            }
            await t.query(
              `UPDATE ic_card SET updated_at = $2, issued_at = CASE WHEN $3 THEN $2 ELSE issued_at END
                WHERE id = $1`,
              [cardId, at, action === 'makeCpu' || action === 'makeM1'],
            );
          });
        },
      });
    }
  }

  for (const [i, [member, daysAgo, hour, amountYuan]] of DEMO_IC_ALLOCATIONS.entries()) {
    const sub = customers.get(member)!;
    const groupKey = DEMO_IC_CUSTOMERS.find((c) => c.key === member)!.group!;
    const group = customers.get(groupKey)!;
    const at = dayTime(now, daysAgo, hour);
    const key = `demo:allocate:${i + 1}`;
    steps.push({
      at,
      run: async () => {
        if (await posted(key)) return;
        await ledger.allocate({
          idempotencyKey: key,
          operatorId,
          reference: `group:${group.id}`,
          memo: 'allocate',
          occurredAt: at,
          groupId: group.accountId,
          subId: sub.accountId,
          amountFen: yuan(amountYuan),
        });
      },
    });
  }

  steps.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const step of steps) await step.run();
}
