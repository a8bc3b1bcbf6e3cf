import type { CardStatus, IcAccountKind, IcCardChip, LedgerKind } from '@voltdepot/shared-contracts';
import type { DataSource } from 'typeorm';
import type { IcCardActionView } from '../dto/iccard.dto';
import type { IcCardDataScope } from '../iccard-data-scope';
import {
  ACTION,
  containing,
  iso,
  num,
  numOrNull,
  type Params,
  type Row,
  scoped,
  textOrNull,
  toAction,
} from '../iccard.repository';
import type {
  AccountQuery,
  IcAccountView,
  IcGroupMemberView,
  IcLedgerRecordPage,
  IcLedgerRecordView,
  RecordQuery,
} from './dto/iccard-query.dto';

/**
 * A customer account with its figures. Consumption and recharges are read over the account's entries and
 * its arrears account's (a consumption the balance cannot cover books the rest as arrears; a recharge
 * settles arrears first), so they are the whole amounts.
 */
const ACCOUNT = `SELECT a.id AS account_id, a.kind, u.id AS customer_id, u.user_name, co.name AS company_name,
    a.balance_fen, a.arrears_fen, a.frozen, co.contacts,
    COALESCE(co.contact_information, u.phone) AS contact_information,
    (SELECT count(*) FROM ic_card k WHERE k.customer_id = u.id) AS card_count,
    CASE WHEN u.client_type = 2 THEN (SELECT count(*) FROM ic_customer m WHERE m.group_id = u.id) END
      AS user_count,
    s.consumed_fen, s.recharged_fen
  FROM ic_customer u JOIN ledger_account_v a ON a.id = u.ledger_account_id
  LEFT JOIN ic_company co ON co.id = u.company_id
  CROSS JOIN LATERAL (
    SELECT -COALESCE(sum(e.amount_fen) FILTER (WHERE e.kind IN ('consumption', 'consumption_amendment')), 0)
             AS consumed_fen,
           COALESCE(sum(e.amount_fen) FILTER (WHERE e.kind = 'recharge'), 0) AS recharged_fen
      FROM ledger_entry_v e WHERE e.account_id IN (a.id, a.arrears_account_id)) s`;

function toAccount(r: Row): IcAccountView {
  return {
    accountId: num(r['account_id']),
    kind: r['kind'] as IcAccountKind,
    customerId: num(r['customer_id']),
    name: String(r['user_name']),
    companyName: textOrNull(r['company_name']),
    balanceFen: num(r['balance_fen']),
    arrearsFen: num(r['arrears_fen']),
    frozen: r['frozen'] === true,
    consumedFen: num(r['consumed_fen']),
    rechargedFen: num(r['recharged_fen']),
    userCount: numOrNull(r['user_count']),
    contacts: textOrNull(r['contacts']),
    contactInformation: textOrNull(r['contact_information']),
    cardCount: num(r['card_count']),
  };
}

/**
 * One record per ledger transaction and customer account (its entry and its arrears account's, summed),
 * grouped before the card and the operator are looked up.
 */
const RECORD_GROUPED = `SELECT e.transaction_id, a.id AS account_id, u.id AS customer_id, u.user_name,
    min(e.kind) AS kind, min(e.reference) AS reference, min(e.operator_id) AS operator_id,
    min(e.occurred_at) AS occurred_at, sum(e.amount_fen) AS amount_fen,
    -COALESCE(sum(e.amount_fen) FILTER (WHERE e.account_id = a.arrears_account_id), 0) AS arrears_change_fen,
    max(e.balance_before_fen) FILTER (WHERE e.account_id = a.id) AS balance_before_fen,
    max(e.balance_after_fen) FILTER (WHERE e.account_id = a.id) AS balance_after_fen
  FROM ic_customer u JOIN ledger_account_v a ON a.id = u.ledger_account_id
  JOIN ledger_entry_v e ON e.account_id IN (a.id, a.arrears_account_id)`;
const RECORD_GROUP_BY = `GROUP BY e.transaction_id, a.id, u.id`;
/** Operators are identity's users: shown by real name, else user name. */
const RECORD_OUTER = `SELECT r.*, k.card_no, COALESCE(NULLIF(op.real_name, ''), op.username) AS operator_name
  FROM (%GROUPED%) r
  LEFT JOIN ic_card_action x ON x.ledger_transaction_id = r.transaction_id
  LEFT JOIN ic_card k ON k.id = x.card_id
  LEFT JOIN identity_user_contact_v op ON op.id = r.operator_id`;

function toRecord(r: Row): IcLedgerRecordView {
  return {
    transactionId: num(r['transaction_id']),
    kind: r['kind'] as LedgerKind,
    accountId: num(r['account_id']),
    customerId: num(r['customer_id']),
    customerName: String(r['user_name']),
    cardNo: textOrNull(r['card_no']),
    amountFen: num(r['amount_fen']),
    arrearsChangeFen: num(r['arrears_change_fen']),
    balanceBeforeFen: numOrNull(r['balance_before_fen']),
    balanceAfterFen: numOrNull(r['balance_after_fen']),
    reference: textOrNull(r['reference']),
    operatorId: numOrNull(r['operator_id']),
    operatorName: textOrNull(r['operator_name']),
    occurredAt: iso(r['occurred_at']),
  };
}

type Filter = { p: Params; sql: string };

/** The IC-card area's read queries for the console's screens and exports (balances through the ledger's views). */
export class IcCardQueryRepository {
  constructor(private readonly db: DataSource) {}

  private accountFilter(scope: IcCardDataScope, q: AccountQuery) {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `a.kind = ${x}`, q.kind);
    f.where((x) => `u.user_name ILIKE ${x}`, q.name && containing(q.name));
    f.where((x) => `u.company_id = ${x}`, q.companyId);
    return f;
  }

  async accountPage(
    scope: IcCardDataScope,
    q: AccountQuery,
    pageNo: number,
    size: number,
  ): Promise<{ list: IcAccountView[]; total: number }> {
    const f = this.accountFilter(scope, q);
    const [{ total }] = await this.db.query(
      `SELECT count(*)::int AS total FROM ic_customer u JOIN ledger_account_v a ON a.id = u.ledger_account_id ${f.sql}`,
      [...f.p.values],
    );
    const rows: Row[] = await this.db.query(
      `${ACCOUNT} ${f.sql} ORDER BY u.id DESC LIMIT ${f.p.add(size)} OFFSET ${f.p.add((pageNo - 1) * size)}`,
      f.p.values,
    );
    return { list: rows.map(toAccount), total };
  }

  /** The account of a customer in the caller's scope. */
  async accountOfCustomer(customerId: number, scope: IcCardDataScope): Promise<IcAccountView | undefined> {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `u.id = ${x}`, customerId);
    const [row] = await this.db.query(`${ACCOUNT} ${f.sql}`, f.p.values);
    return row ? toAccount(row) : undefined;
  }

  /** A group's users (in the caller's scope) with their balances, consumption and cards. */
  async groupMembers(groupId: number, scope: IcCardDataScope): Promise<IcGroupMemberView[]> {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `u.group_id = ${x}`, groupId);
    const rows: Row[] = await this.db.query(
      `SELECT u.id, u.user_name, u.phone, u.ledger_account_id,
              COALESCE(a.balance_fen, 0) AS balance_fen, COALESCE(a.arrears_fen, 0) AS arrears_fen,
              COALESCE(s.consumed_fen, 0) AS consumed_fen,
              COALESCE((SELECT json_agg(json_build_object('cardNo', k.card_no, 'chip', k.chip, 'status', k.status)
                                 ORDER BY k.id)
                          FROM ic_card k WHERE k.customer_id = u.id), '[]') AS cards
         FROM ic_customer u LEFT JOIN ledger_account_v a ON a.id = u.ledger_account_id
         LEFT JOIN LATERAL (
           SELECT -sum(e.amount_fen) AS consumed_fen FROM ledger_entry_v e
            WHERE e.account_id IN (a.id, a.arrears_account_id)
              AND e.kind IN ('consumption', 'consumption_amendment')) s ON true
         ${f.sql} ORDER BY u.id`,
      f.p.values,
    );
    return rows.map((r) => ({
      customerId: num(r['id']),
      userName: String(r['user_name']),
      phone: textOrNull(r['phone']),
      accountId: numOrNull(r['ledger_account_id']),
      balanceFen: num(r['balance_fen']),
      arrearsFen: num(r['arrears_fen']),
      consumedFen: num(r['consumed_fen']),
      cards: (r['cards'] as { cardNo: string; chip: IcCardChip; status: CardStatus }[]) ?? [],
    }));
  }

  private recordFilter(scope: IcCardDataScope, q: RecordQuery): Filter {
    const f = scoped('u.organization_id', scope);
    f.where((x) => `e.kind = ANY(${x}::text[])`, q.kind);
    f.where((x) => `a.id = ${x}`, q.accountId);
    f.where((x) => `u.id = ${x}`, q.customerId);
    f.where((x) => `e.occurred_at >= ${x}`, q.from);
    f.where((x) => `e.occurred_at <= ${x}`, q.to);
    // The card's own actions, and what its account records without a card action (consumption...).
    f.where(
      (x) => `(EXISTS (SELECT 1 FROM ic_card_action cx JOIN ic_card ck ON ck.id = cx.card_id
                        WHERE cx.ledger_transaction_id = e.transaction_id AND ck.card_no = ${x})
               OR (a.id IN (SELECT ck.ledger_account_id FROM ic_card ck WHERE ck.card_no = ${x})
                   AND NOT EXISTS (SELECT 1 FROM ic_card_action cx
                                    WHERE cx.ledger_transaction_id = e.transaction_id)))`,
      q.cardNo,
    );
    return f;
  }

  /** The records the filters match, newest first, with their count and the sum of their amounts. */
  async recordPage(
    scope: IcCardDataScope,
    q: RecordQuery,
    pageNo: number,
    size: number,
  ): Promise<IcLedgerRecordPage> {
    const f = this.recordFilter(scope, q);
    const grouped = `${RECORD_GROUPED} ${f.sql} ${RECORD_GROUP_BY}`;
    const [{ total, sum_fen }] = await this.db.query(
      `SELECT count(*)::int AS total, COALESCE(sum(g.amount_fen), 0) AS sum_fen FROM (${grouped}) g`,
      [...f.p.values],
    );
    const rows: Row[] = await this.db.query(
      `${RECORD_OUTER.replace('%GROUPED%', grouped)}
        ORDER BY r.occurred_at DESC, r.transaction_id DESC, r.account_id
        LIMIT ${f.p.add(size)} OFFSET ${f.p.add((pageNo - 1) * size)}`,
      f.p.values,
    );
    return { list: rows.map(toRecord), total, sumFen: num(sum_fen) };
  }

  /** A card's last actions, newest first (the card is found in scope first). */
  async lastActions(cardId: number, limit: number): Promise<IcCardActionView[]> {
    const rows: Row[] = await this.db.query(`${ACTION} WHERE x.card_id = $1 ORDER BY x.id DESC LIMIT $2`, [
      cardId,
      limit,
    ]);
    return rows.map(toAction);
  }
}
