import type { CardStatus, IcCardAction, IcCardChip } from '@voltdepot/shared-contracts';
import { uniqueViolation } from '@voltdepot/server-database';
import type { DataSource, EntityManager } from 'typeorm';
import { IcCardErrorCode, IcCardException } from './iccard.exception';
import type {
  ActionQuery,
  CardQuery,
  CompanyQuery,
  CustomerQuery,
  IcCardActionView,
  IcCardView,
  IcCompanyView,
  IcCustomerView,
  SaveCompanyDto,
  SaveCustomerDto,
} from './dto/iccard.dto';
import type { IcCardDataScope } from './iccard-data-scope';

export type Row = Record<string, unknown>;
type Db = DataSource | EntityManager;

export const num = (v: unknown) => Number(v);
export const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
export const textOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));
export const iso = (v: unknown) => new Date(v as string).toISOString();

/** Positional parameters by name of value: `p.add(x)` binds `x` and answers its placeholder. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** WHERE within the caller's data scope (`column` is an organisation id), with the grid's filters. */
export function scoped(column: string, scope: IcCardDataScope) {
  const p = new Params();
  const conditions = [
    `${column} IN (SELECT so.id FROM identity_organization_v so WHERE so.path LIKE ANY(${p.add(scope.pathPatterns)}::text[]))`,
  ];
  return {
    p,
    where: (condition: (placeholder: string) => string, value: unknown) => {
      if (value !== undefined) conditions.push(condition(p.add(value)));
    },
    get sql() {
      return `WHERE ${conditions.join(' AND ')}`;
    },
  };
}

/** `%text%` with LIKE's wildcards taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const COMPANY = `SELECT c.id, c.organization_id, c.number, c.name, c.contacts, c.contact_information, c.updated_at
  FROM ic_company c`;

function toCompany(r: Row): IcCompanyView {
  return {
    id: num(r['id']),
    organizationId: num(r['organization_id']),
    number: String(r['number']),
    name: String(r['name']),
    contacts: String(r['contacts']),
    contactInformation: String(r['contact_information']),
    updatedAt: iso(r['updated_at']),
  };
}

const CUSTOMER = `SELECT u.*, co.name AS company_name, a.kind AS account_kind, a.balance_fen, a.arrears_fen
  FROM ic_customer u LEFT JOIN ic_company co ON co.id = u.company_id
  LEFT JOIN ledger_account_v a ON a.id = u.ledger_account_id`;

function toCustomer(r: Row): IcCustomerView {
  return {
    id: num(r['id']),
    organizationId: num(r['organization_id']),
    clientType: num(r['client_type']),
    groupId: numOrNull(r['group_id']),
    userName: String(r['user_name']),
    certificateType: String(r['certificate_type']),
    certificateNumber: String(r['certificate_number']),
    customerType: String(r['customer_type']),
    phone: textOrNull(r['phone']),
    companyId: numOrNull(r['company_id']),
    companyName: textOrNull(r['company_name']),
    gender: numOrNull(r['gender']),
    nation: textOrNull(r['nation']),
    address: textOrNull(r['address']),
    identityVerified: r['identity_verified'] === true,
    accountId: numOrNull(r['ledger_account_id']),
    accountKind: textOrNull(r['account_kind']),
    balanceFen: numOrNull(r['balance_fen']),
    arrearsFen: numOrNull(r['arrears_fen']),
    updatedAt: iso(r['updated_at']),
  };
}

const CARD = `SELECT k.id, k.card_no, k.chip, k.card_type, k.status, k.customer_id, k.ledger_account_id,
    k.issued_at, k.updated_at, u.user_name, u.certificate_number, u.organization_id,
    COALESCE(a.balance_fen, 0) AS balance_fen
  FROM ic_card k JOIN ic_customer u ON u.id = k.customer_id
  LEFT JOIN ledger_account_v a ON a.id = k.ledger_account_id`;

function toCard(r: Row): IcCardView {
  return {
    id: num(r['id']),
    cardNo: String(r['card_no']),
    chip: r['chip'] as IcCardChip,
    cardType: num(r['card_type']),
    status: r['status'] as CardStatus,
    customerId: num(r['customer_id']),
    customerName: String(r['user_name']),
    accountId: num(r['ledger_account_id']),
    balanceFen: num(r['balance_fen']),
    issuedAt: iso(r['issued_at']),
    updatedAt: iso(r['updated_at']),
  };
}

/** A card with what its actions need: the holder's registered certificate number. */
export type CardRecord = IcCardView & { certificateNumber: string };

export const ACTION = `SELECT x.id, x.action, x.status_before, x.status_after, x.notes, x.amount_fen, x.operator_id,
    x.occurred_at, x.request_hash, k.card_no, u.user_name, e.balance_before_fen, e.balance_after_fen
  FROM ic_card_action x JOIN ic_card k ON k.id = x.card_id JOIN ic_customer u ON u.id = k.customer_id
  LEFT JOIN ledger_entry_v e ON e.transaction_id = x.ledger_transaction_id AND e.account_id = k.ledger_account_id`;

export function toAction(r: Row): IcCardActionView {
  return {
    id: num(r['id']),
    cardNo: String(r['card_no']),
    customerName: String(r['user_name']),
    action: r['action'] as IcCardAction,
    statusBefore: r['status_before'] as CardStatus,
    statusAfter: r['status_after'] as CardStatus,
    notes: (r['notes'] as string[]) ?? [],
    amountFen: numOrNull(r['amount_fen']),
    balanceBeforeFen: numOrNull(r['balance_before_fen']),
    balanceAfterFen: numOrNull(r['balance_after_fen']),
    operatorId: num(r['operator_id']),
    occurredAt: iso(r['occurred_at']),
  };
}

export type NewCardAction = {
  cardId: number;
  action: IcCardAction;
  statusBefore: CardStatus;
  statusAfter: CardStatus;
  notes: string[];
  amountFen: number | null;
  ledgerTransactionId: number | null;
  operatorId: number;
  idempotencyKey: string;
  requestHash: string;
  /** When it happened, if not now: only the demo seed sets it (its history is dated in the past). */
  occurredAt?: Date;
};

async function page<T>(
  db: DataSource,
  select: string,
  filter: { p: Params; sql: string },
  order: string,
  pageNo: number,
  size: number,
  map: (r: Row) => T,
): Promise<{ list: T[]; total: number }> {
  const [{ total }] = await db.query(`SELECT count(*)::int AS total FROM (${select} ${filter.sql}) t`, [
    ...filter.p.values,
  ]);
  const limit = filter.p.add(size);
  const offset = filter.p.add((pageNo - 1) * size);
  const rows: Row[] = await db.query(
    `${select} ${filter.sql} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
    filter.p.values,
  );
  return { list: rows.map(map), total };
}

/** The only file with the IC-card area's SQL (ledger balances and entries through its published views). */
export class IcCardRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * One database transaction. The services check numbers and request ids before inserting; two requests at
   * the same instant both pass that check, and the second then meets the unique index: answered as the
   * same 409 as the check's, never a 500.
   */
  async transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (error) {
      throw duplicateOf(uniqueViolation(error)) ?? error;
    }
  }

  /** 'missing', 'outside' the scope, or 'visible'. */
  async organizationAccess(
    organizationId: number,
    scope: IcCardDataScope,
  ): Promise<'missing' | 'outside' | 'visible'> {
    const rows: { visible: boolean }[] = await this.db.query(
      `SELECT o.path LIKE ANY($2::text[]) AS visible FROM identity_organization_v o WHERE o.id = $1`,
      [organizationId, scope.pathPatterns],
    );
    if (!rows.length) return 'missing';
    return rows[0].visible ? 'visible' : 'outside';
  }

  // Companies

  companyPage(scope: IcCardDataScope, q: CompanyQuery, pageNo: number, size: number) {
    const f = scoped('c.organization_id', scope);
    f.where((x) => `c.number ILIKE ${x}`, q.number && containing(q.number));
    f.where((x) => `c.name ILIKE ${x}`, q.name && containing(q.name));
    return page(this.db, COMPANY, f, 'c.id DESC', pageNo, size, toCompany);
  }

  async findCompany(db: Db, id: number, scope: IcCardDataScope): Promise<IcCompanyView | undefined> {
    const f = scoped('c.organization_id', scope);
    f.where((x) => `c.id = ${x}`, id);
    const [row] = await db.query(`${COMPANY} ${f.sql}`, f.p.values);
    return row ? toCompany(row) : undefined;
  }

  async companyNumberTaken(m: EntityManager, number: string, exceptId = 0): Promise<boolean> {
    const rows = await m.query(`SELECT 1 FROM ic_company WHERE number = $1 AND id <> $2`, [number, exceptId]);
    return rows.length > 0;
  }

  async saveCompany(
    m: EntityManager,
    id: number | undefined,
    dto: SaveCompanyDto & { organizationId: number },
  ): Promise<number> {
    const values = [dto.number, dto.name, dto.contacts, dto.contactInformation, dto.organizationId];
    if (id === undefined) {
      const [row] = await m.query(
        `INSERT INTO ic_company (number, name, contacts, contact_information, organization_id)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        values,
      );
      return num(row.id);
    }
    await m.query(
      `UPDATE ic_company SET number = $1, name = $2, contacts = $3, contact_information = $4,
              organization_id = $5, updated_at = now() WHERE id = $6`,
      [...values, id],
    );
    return id;
  }

  // Customers

  customerPage(scope: IcCardDataScope, q: CustomerQuery, pageNo: number, size: number) {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `u.user_name ILIKE ${x}`, q.userName && containing(q.userName));
    f.where((x) => `u.client_type = ${x}`, q.clientType && Number(q.clientType));
    f.where((x) => `u.company_id = ${x}`, q.companyId);
    f.where((x) => `u.group_id = ${x}`, q.groupId);
    return page(this.db, CUSTOMER, f, 'u.id DESC', pageNo, size, toCustomer);
  }

  async findCustomer(
    db: Db,
    id: number,
    scope: IcCardDataScope,
    lock = false,
  ): Promise<IcCustomerView | undefined> {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `u.id = ${x}`, id);
    const [row] = await db.query(`${CUSTOMER} ${f.sql}${lock ? ' FOR UPDATE OF u' : ''}`, f.p.values);
    return row ? toCustomer(row) : undefined;
  }

  async saveCustomer(
    m: EntityManager,
    id: number | undefined,
    dto: SaveCustomerDto & { organizationId: number },
  ): Promise<number> {
    const p = new Params();
    const columns: [string, unknown][] = [
      ['organization_id', dto.organizationId],
      ['client_type', dto.clientType],
      ['group_id', dto.groupId ?? null],
      ['user_name', dto.userName],
      ['certificate_type', dto.certificateType],
      ['certificate_number', dto.certificateNumber],
      ['customer_type', dto.customerType],
      ['phone', dto.phone ?? null],
      ['company_id', dto.companyId ?? null],
      ['gender', dto.gender ?? null],
      ['nation', dto.nation ?? null],
      ['address', dto.address ?? null],
      ['identity_verified', dto.identityVerified],
    ];
    if (id === undefined) {
      const [row] = await m.query(
        `INSERT INTO ic_customer (${columns.map(([c]) => c).join(', ')})
         VALUES (${columns.map(([, v]) => p.add(v)).join(', ')}) RETURNING id`,
        p.values,
      );
      return num(row.id);
    }
    const set = columns.map(([c, v]) => `${c} = ${p.add(v)}`).join(', ');
    await m.query(`UPDATE ic_customer SET ${set}, updated_at = now() WHERE id = ${p.add(id)}`, p.values);
    return id;
  }

  async setCustomerAccount(m: EntityManager, id: number, accountId: number): Promise<void> {
    await m.query(`UPDATE ic_customer SET ledger_account_id = $2 WHERE id = $1`, [id, accountId]);
  }

  // Cards

  cardPage(scope: IcCardDataScope, q: CardQuery, pageNo: number, size: number) {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `k.card_no ILIKE ${x}`, q.cardNo && containing(q.cardNo));
    f.where((x) => `k.status = ${x}`, q.status);
    f.where((x) => `k.chip = ${x}`, q.chip);
    f.where((x) => `k.card_type = ${x}`, q.cardType && Number(q.cardType));
    f.where((x) => `k.customer_id = ${x}`, q.customerId);
    return page(this.db, CARD, f, 'k.id DESC', pageNo, size, toCard);
  }

  /** A card in the caller's scope; `lock` takes its row lock (its actions are serialised on it). */
  async findCard(
    db: Db,
    cardNo: string,
    scope: IcCardDataScope,
    lock = false,
  ): Promise<CardRecord | undefined> {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `k.card_no = ${x}`, cardNo);
    const [row] = await db.query(`${CARD} ${f.sql}${lock ? ' FOR UPDATE OF k' : ''}`, f.p.values);
    return row ? { ...toCard(row), certificateNumber: String(row['certificate_number']) } : undefined;
  }

  async cardNoTaken(m: EntityManager, cardNo: string): Promise<boolean> {
    return (await m.query(`SELECT 1 FROM ic_card WHERE card_no = $1`, [cardNo])).length > 0;
  }

  async insertCard(
    m: EntityManager,
    card: { cardNo: string; chip: IcCardChip; cardType: number; customerId: number; accountId: number },
  ): Promise<void> {
    await m.query(
      `INSERT INTO ic_card (card_no, chip, card_type, customer_id, ledger_account_id) VALUES ($1, $2, $3, $4, $5)`,
      [card.cardNo, card.chip, card.cardType, card.customerId, card.accountId],
    );
  }

  async setCardStatus(m: EntityManager, cardId: number, status: CardStatus): Promise<void> {
    await m.query(`UPDATE ic_card SET status = $2, updated_at = now() WHERE id = $1`, [cardId, status]);
  }

  // Card actions

  actionPage(scope: IcCardDataScope, q: ActionQuery, pageNo: number, size: number) {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `k.card_no ILIKE ${x}`, q.cardNo && containing(q.cardNo));
    f.where((x) => `x.action = ${x}`, q.action);
    f.where((x) => `k.customer_id = ${x}`, q.customerId);
    return page(this.db, ACTION, f, 'x.id DESC', pageNo, size, toAction);
  }

  async actionByKey(
    m: EntityManager,
    idempotencyKey: string,
  ): Promise<(IcCardActionView & { requestHash: string }) | undefined> {
    const [row] = await m.query(`${ACTION} WHERE x.idempotency_key = $1`, [idempotencyKey]);
    return row ? { ...toAction(row), requestHash: String(row['request_hash']) } : undefined;
  }

  async insertAction(m: EntityManager, a: NewCardAction): Promise<IcCardActionView> {
    const [row] = await m.query(
      `INSERT INTO ic_card_action (card_id, action, status_before, status_after, notes, amount_fen,
         ledger_transaction_id, operator_id, idempotency_key, request_hash, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, COALESCE($11::timestamptz, now())) RETURNING id`,
      [
        a.cardId,
        a.action,
        a.statusBefore,
        a.statusAfter,
        a.notes,
        a.amountFen,
        a.ledgerTransactionId,
        a.operatorId,
        a.idempotencyKey,
        a.requestHash,
        a.occurredAt ?? null,
      ],
    );
    const [view] = await m.query(`${ACTION} WHERE x.id = $1`, [row.id]);
    return toAction(view);
  }

  /**
   * The balance before the ledger transaction posted under `idempotencyKey` on `accountId`, when one was
   * (a retry after the posting committed and the card's record did not).
   */
  async postedBalanceBefore(
    m: EntityManager,
    idempotencyKey: string,
    accountId: number,
  ): Promise<number | undefined> {
    const [row] = await m.query(
      `SELECT balance_before_fen FROM ledger_entry_v WHERE idempotency_key = $1 AND account_id = $2`,
      [idempotencyKey, accountId],
    );
    return row ? num(row.balance_before_fen) : undefined;
  }
}

/** The area's 409 for a unique index the services also check before inserting. */
function duplicateOf(constraint: string | undefined): IcCardException | undefined {
  switch (constraint) {
    case 'ic_company_number_uq':
      return new IcCardException(
        IcCardErrorCode.CompanyNumberRepeated,
        'the company number is already used',
        [{ field: 'number', message: 'already used' }],
      );
    case 'ic_card_card_no_uq':
      return new IcCardException(IcCardErrorCode.CardNumberRepeated, 'the card self number is already used', {
        messageCode: 'selfNumberRepeated',
        fields: [{ field: 'cardNo', message: 'already used' }],
      });
    case 'ic_card_action_idempotency_key_uq':
      return new IcCardException(
        IcCardErrorCode.IdempotencyConflict,
        'this request id was used at the same time for another request',
        [{ field: 'requestId', message: 'already used for another request' }],
      );
    default:
      return undefined;
  }
}
