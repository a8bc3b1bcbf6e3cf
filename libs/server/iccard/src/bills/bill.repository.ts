import type { DataSource } from 'typeorm';
import type { IcCardDataScope } from '../iccard-data-scope';
import { containing } from '../iccard.repository';
import type { BillPosting } from './bill-statement';
import type { BillAccountKind, BillQuery } from './dto/bill.dto';

/** A customer account a bill is made for: the ledger's account and the customer it belongs to. */
export type BillAccount = { accountId: number; kind: BillAccountKind; customerId: number; name: string };

/** What the grid needs per account: the position before the month, the month's totals per kind, orders. */
export type BillTotals = {
  openingFen: number;
  totals: { kind: string; amountFen: number }[];
  orderCount: number;
};

type Row = Record<string, unknown>;

const toAccount = (r: Row): BillAccount => ({
  accountId: Number(r['account_id']),
  kind: r['kind'] as BillAccountKind,
  customerId: Number(r['customer_id']),
  name: String(r['name']),
});

/**
 * The SQL of the bills (docs/ic-cards.md, Bills). The ledger's data only through what it publishes:
 * `ledger_account_v` (customer accounts) and `ledger_statement_entry_v` (the entries of a customer
 * account and its arrears account, under the customer account).
 */
export class IcBillRepository {
  constructor(private readonly db: DataSource) {}

  /** The customers' accounts in the caller's scope that existed before `end`, by account id. */
  async accounts(
    scope: IcCardDataScope,
    q: Pick<BillQuery, 'name' | 'kind'>,
    end: Date,
    limit: number,
    offset: number,
  ): Promise<{ list: BillAccount[]; total: number }> {
    const params: unknown[] = [scope.pathPatterns, end];
    const where = [
      `u.organization_id IN (SELECT so.id FROM identity_organization_v so WHERE so.path LIKE ANY($1::text[]))`,
      `u.created_at < $2`,
    ];
    if (q.name !== undefined) {
      params.push(containing(q.name));
      where.push(`u.user_name ILIKE $${params.length}`);
    }
    if (q.kind !== undefined) {
      params.push(q.kind);
      where.push(`a.kind = $${params.length}`);
    }
    params.push(limit, offset);
    const rows = (await this.db.query(
      `SELECT a.id AS account_id, a.kind, u.id AS customer_id, u.user_name AS name, count(*) OVER () AS total
         FROM ic_customer u JOIN ledger_account_v a ON a.id = u.ledger_account_id
        WHERE ${where.join(' AND ')}
        ORDER BY a.id
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    )) as Row[];
    if (rows.length > 0) return { list: rows.map(toAccount), total: Number(rows[0]!['total']) };
    // A page past the end: the window count has no row to ride on.
    return { list: [], total: offset === 0 ? 0 : (await this.accounts(scope, q, end, 1, 0)).total };
  }

  /** One customer account in the caller's scope. */
  async account(scope: IcCardDataScope, accountId: number): Promise<BillAccount | undefined> {
    const rows = (await this.db.query(
      `SELECT a.id AS account_id, a.kind, u.id AS customer_id, u.user_name AS name
         FROM ic_customer u JOIN ledger_account_v a ON a.id = u.ledger_account_id
        WHERE a.id = $1
          AND u.organization_id IN (SELECT so.id FROM identity_organization_v so WHERE so.path LIKE ANY($2::text[]))`,
      [accountId, scope.pathPatterns],
    )) as Row[];
    return rows[0] ? toAccount(rows[0]) : undefined;
  }

  /** Per account: the position at `start`, the totals per transaction kind in [start, end), the orders. */
  async totals(accountIds: number[], start: Date, end: Date): Promise<Map<number, BillTotals>> {
    const result = new Map<number, BillTotals>(
      accountIds.map((id) => [id, { openingFen: 0, totals: [], orderCount: 0 }]),
    );
    if (accountIds.length === 0) return result;
    const rows = (await this.db.query(
      `SELECT holder_account_id AS account_id, kind,
              COALESCE(SUM(amount_fen) FILTER (WHERE occurred_at < $2), 0) AS before_fen,
              COALESCE(SUM(amount_fen) FILTER (WHERE occurred_at >= $2), 0) AS month_fen
         FROM ledger_statement_entry_v
        WHERE holder_account_id = ANY($1::bigint[]) AND occurred_at < $3
        GROUP BY holder_account_id, kind`,
      [accountIds, start, end],
    )) as Row[];
    for (const r of rows) {
      const t = result.get(Number(r['account_id']))!;
      t.openingFen += Number(r['before_fen']);
      const month = Number(r['month_fen']);
      if (month !== 0) t.totals.push({ kind: String(r['kind']), amountFen: month });
    }
    const orders = (await this.db.query(
      `SELECT holder_account_id AS account_id,
              COUNT(DISTINCT COALESCE(reference, 'transaction:' || transaction_id)) AS orders
         FROM ledger_statement_entry_v
        WHERE holder_account_id = ANY($1::bigint[]) AND occurred_at >= $2 AND occurred_at < $3
          AND kind IN ('consumption', 'consumption_amendment')
        GROUP BY holder_account_id`,
      [accountIds, start, end],
    )) as Row[];
    for (const r of orders) result.get(Number(r['account_id']))!.orderCount = Number(r['orders']);
    return result;
  }

  /** The position at `start` and the month's transactions (each summed over the account and its arrears). */
  async postings(
    accountId: number,
    start: Date,
    end: Date,
  ): Promise<{ openingFen: number; postings: BillPosting[] }> {
    const [opening] = (await this.db.query(
      `SELECT COALESCE(SUM(amount_fen), 0) AS fen FROM ledger_statement_entry_v
        WHERE holder_account_id = $1 AND occurred_at < $2`,
      [accountId, start],
    )) as Row[];
    const rows = (await this.db.query(
      `SELECT transaction_id, kind, reference, occurred_at, SUM(amount_fen) AS amount_fen
         FROM ledger_statement_entry_v
        WHERE holder_account_id = $1 AND occurred_at >= $2 AND occurred_at < $3
        GROUP BY transaction_id, kind, reference, occurred_at
        ORDER BY occurred_at, transaction_id`,
      [accountId, start, end],
    )) as Row[];
    return {
      openingFen: Number(opening?.['fen'] ?? 0),
      postings: rows.map((r) => ({
        transactionId: Number(r['transaction_id']),
        kind: String(r['kind']),
        reference: r['reference'] === null ? null : String(r['reference']),
        occurredAt: new Date(r['occurred_at'] as string),
        amountFen: Number(r['amount_fen']),
      })),
    };
  }
}
