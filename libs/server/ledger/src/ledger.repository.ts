import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import {
  applyEntries,
  type AccountKind,
  type CustomerAccountKind,
  type EntryRequest,
  type LockedAccount,
  type TransactionKind,
} from './ledger-postings';
import { LedgerErrorCode, LedgerException } from './ledger.exception';
import { CardAuthorisationWriter } from './authorisation/card-authorisation.writer';
import { DEFAULT_MINIMUM_BALANCE_FEN } from './authorisation/card-authorisation';

/** An account as read: `arrearsFen` is what its arrears account says the customer owes (0 or more). */
export type LedgerAccount = {
  id: number;
  kind: AccountKind;
  parentId: number | null;
  customerId: number | null;
  companyId: number | null;
  name: string;
  balanceFen: number;
  arrearsFen: number;
  frozen: boolean;
};

export type PostedEntry = {
  accountId: number;
  amountFen: number;
  balanceBeforeFen: number | null;
  balanceAfterFen: number | null;
};

export type PostedTransaction = {
  id: number;
  kind: TransactionKind;
  idempotencyKey: string;
  operatorId: number | null;
  occurredAt: Date;
  reference: string | null;
  memo: string | null;
  entries: PostedEntry[];
  /** True when the key had posted this transaction before: nothing was posted now. */
  replayed: boolean;
};

export type TransactionMeta = {
  idempotencyKey: string;
  kind: TransactionKind;
  operatorId?: number | null;
  reference?: string | null;
  memo?: string | null;
  /**
   * When the money moved, if not now: only the demo seed sets it (scripts/demo/iccard.ts, to spread its
   * history over past days); not part of the request's fingerprint, and a replay keeps the first time.
   */
  occurredAt?: Date | null;
};

/**
 * A posting to make: `lockIds` are the cached accounts it touches (each locked with its arrears account,
 * in id order), `plan` makes the entries from them once locked (it may refuse with a domain exception).
 */
export type PostingRequest = TransactionMeta & {
  requestHash: string;
  lockIds: number[];
  plan: (accounts: ReadonlyMap<number, LockedAccount>) => EntryRequest[];
};

export type OpenAccountInput = {
  kind: CustomerAccountKind;
  name: string;
  parentId?: number | null;
  customerId?: number | null;
  companyId?: number | null;
};

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const ACCOUNT_SELECT = `SELECT a.id, a.kind, a.parent_id, a.customer_id, a.company_id, a.name, a.balance_fen, a.frozen,
    COALESCE(-r.balance_fen, 0) AS arrears_fen
  FROM ledger_account a LEFT JOIN ledger_account r ON r.parent_id = a.id AND r.kind = 'arrears'`;

function toAccount(row: Row): LedgerAccount {
  return {
    id: num(row['id']),
    kind: row['kind'] as AccountKind,
    parentId: numOrNull(row['parent_id']),
    customerId: numOrNull(row['customer_id']),
    companyId: numOrNull(row['company_id']),
    name: String(row['name']),
    balanceFen: num(row['balance_fen']),
    arrearsFen: num(row['arrears_fen']),
    frozen: Boolean(row['frozen']),
  };
}

/**
 * A posting's first statement: the transaction row with its key (`ON CONFLICT DO NOTHING`: a concurrent
 * poster of the same key waits on it), then, only when the row is new, the accounts `$7` and their
 * arrears accounts locked in id order (`$8`: the time it happened, now unless given). No row: the key was posted before. One row per locked account
 * (one with null account columns when none is locked), each carrying the new transaction's id.
 */
const POST_BEGIN = `WITH tx AS (
    INSERT INTO ledger_transaction (kind, idempotency_key, request_hash, operator_id, reference, memo, occurred_at)
    VALUES ($1, $2, $3, $4, $5, $6, COALESCE($8::timestamptz, now()))
    ON CONFLICT (idempotency_key) DO NOTHING RETURNING id, occurred_at),
  locked AS (
    SELECT id, kind, parent_id, balance_fen, frozen FROM ledger_account
     WHERE (id = ANY($7::bigint[]) OR (kind = 'arrears' AND parent_id = ANY($7::bigint[])))
       AND EXISTS (SELECT 1 FROM tx)
     ORDER BY id FOR UPDATE)
  SELECT tx.id AS tx_id, tx.occurred_at, l.id, l.kind, l.parent_id, l.balance_fen, l.frozen
    FROM tx LEFT JOIN locked l ON true ORDER BY l.id`;

/** A posting's writes in one statement: its entries, and the cached balances of its locked accounts. */
const POST_WRITE = `WITH balances AS (
    UPDATE ledger_account a SET balance_fen = v.after, updated_at = now()
      FROM unnest($6::bigint[], $7::bigint[]) AS v(id, after) WHERE a.id = v.id RETURNING a.id)
  INSERT INTO ledger_entry (transaction_id, account_id, amount_fen, balance_before_fen, balance_after_fen)
  SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])`;

/** The pg connection under a TypeORM query runner (simple-query protocol: several statements in one). */
type PgClient = {
  query(text: string): Promise<{ rows: Row[] } | { rows: Row[] }[]>;
  escapeLiteral(value: string): string;
};

/** The connections on which the two posting statements are prepared (server-side, once per connection). */
const preparedOn = new WeakSet<object>();
const PREPARE_POSTING = `PREPARE ledger_post_begin AS ${POST_BEGIN}; PREPARE ledger_post_write AS ${POST_WRITE}`;
/** Which of the two is still prepared on the connection (to drop before preparing them again). */
const STILL_PREPARED = `SELECT name FROM pg_prepared_statements WHERE name IN ('ledger_post_begin', 'ledger_post_write')`;
/**
 * A prepared statement the connection no longer has (26000), or one whose plan no longer fits the
 * tables it reads (0A000 "cached plan must not change result type", after a migration).
 */
const isStalePreparedStatement = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === '26000' || (code === '0A000' && /cached plan/.test(message ?? ''));
};

/** The last result of a (possibly multi-statement) simple query. */
const lastRows = (result: { rows: Row[] } | { rows: Row[] }[]) =>
  (Array.isArray(result) ? result[result.length - 1] : result).rows;

/** SQL literals for the posting's EXECUTE: strings escaped by the driver, integers checked as such. */
const sqlText = (client: PgClient, value: string | null) =>
  value === null ? 'NULL' : client.escapeLiteral(value);
function sqlInt(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = String(value);
  if (!/^-?\d+$/.test(text)) throw new Error(`not an integer: ${text}`);
  return text;
}
const sqlInts = (values: readonly unknown[]) => `'{${values.map(sqlInt).join(',')}}'`;

/** The only file with the ledger's SQL. */
export class LedgerRepository {
  private system?: Promise<Map<number, LockedAccount>>;

  /**
   * `cards` announces the cards whose authorisation a posting, freeze or link changes, in its transaction
   * (with the minimum balance the service blocks below); `afterAnnounce` runs after a commit that
   * announced some (the process's outbox relay is nudged with it).
   */
  constructor(
    private readonly dataSource: DataSource,
    private readonly cards = new CardAuthorisationWriter(DEFAULT_MINIMUM_BALANCE_FEN),
    private readonly afterAnnounce?: () => void,
  ) {}

  /**
   * The cash and revenue accounts (never locked: they keep no cached balance), read once; a failed or
   * incomplete read (database down, migrations not yet run) is not kept: the next call reads again.
   */
  systemAccounts(): Promise<Map<number, LockedAccount>> {
    this.system ??= this.readSystemAccounts();
    return this.system;
  }

  private readSystemAccounts(): Promise<Map<number, LockedAccount>> {
    const read = this.dataSource
      .query(`SELECT id, kind FROM ledger_account WHERE kind IN ('cash', 'revenue')`)
      .then(
        (rows: Row[]) =>
          new Map(
            rows.map((r) => [
              num(r['id']),
              {
                id: num(r['id']),
                kind: r['kind'] as AccountKind,
                parentId: null,
                balanceFen: 0,
                frozen: false,
              },
            ]),
          ),
      );
    const forget = () => {
      if (this.system === read) this.system = undefined;
    };
    read.then((accounts) => {
      const kinds = new Set([...accounts.values()].map((a) => a.kind));
      if (!kinds.has('cash') || !kinds.has('revenue')) forget();
    }, forget);
    return read;
  }

  async systemAccountId(kind: 'cash' | 'revenue'): Promise<number> {
    const found = [...(await this.systemAccounts()).values()].find((a) => a.kind === kind);
    if (!found) throw new Error(`the ledger's ${kind} account is missing (migrations not run?)`);
    return found.id;
  }

  /** A customer account with its arrears account, in one transaction. */
  async openAccount(input: OpenAccountInput): Promise<LedgerAccount> {
    return this.dataSource.transaction(async (m) => {
      const [row] = await m.query(
        `INSERT INTO ledger_account (kind, parent_id, customer_id, company_id, name)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [input.kind, input.parentId ?? null, input.customerId ?? null, input.companyId ?? null, input.name],
      );
      await m.query(`INSERT INTO ledger_account (kind, parent_id, name) VALUES ('arrears', $1, $2)`, [
        row.id,
        `${input.name} (arrears)`,
      ]);
      return (await this.account(num(row.id), m))!;
    });
  }

  async account(id: number, m?: EntityManager): Promise<LedgerAccount | undefined> {
    const [row] = await (m ?? this.dataSource).query(`${ACCOUNT_SELECT} WHERE a.id = $1`, [id]);
    return row ? toAccount(row) : undefined;
  }

  async setFrozen(id: number, frozen: boolean): Promise<boolean> {
    const found = await this.dataSource.transaction((m) => this.cards.setFrozen(m, id, frozen));
    if (found) this.afterAnnounce?.();
    return found;
  }

  /**
   * One ledger transaction, exactly once per idempotency key: the key's row is inserted first (a
   * concurrent poster of the same key waits on it), then the accounts are locked in id order (no
   * deadlocks), the entries planned and checked, written with their balances before and after, and
   * the cached balances updated, all in one database transaction. A key posted before returns what it
   * posted (`replayed`), or a conflict when the request differs.
   */
  async post(request: PostingRequest): Promise<PostedTransaction> {
    const system = await this.systemAccounts();
    const lockIds = [...new Set(request.lockIds)].filter((id) => !system.has(id));
    const runner = this.dataSource.createQueryRunner();
    const client: PgClient = await runner.connect();
    try {
      return await this.postOn(runner, client, request, system, lockIds);
    } catch (error) {
      // The connection lost its prepared statements (DISCARD ALL, DEALLOCATE, a pooler's reset) or their
      // plans no longer fit the tables (a migration): prepare them again and post once more (the failed
      // attempt was rolled back, nothing of it stays).
      if (!isStalePreparedStatement(error) || !preparedOn.delete(client)) throw error;
      for (const row of lastRows(await client.query(STILL_PREPARED)))
        await client.query(`DEALLOCATE ${String(row['name'])}`);
      return await this.postOn(runner, client, request, system, lockIds);
    } finally {
      await runner.release();
    }
  }

  private async postOn(
    runner: QueryRunner,
    client: PgClient,
    request: PostingRequest,
    system: Map<number, LockedAccount>,
    lockIds: number[],
  ): Promise<PostedTransaction> {
    let open = false;
    let announced = 0;
    try {
      if (!preparedOn.has(client)) {
        await client.query(PREPARE_POSTING);
        preparedOn.add(client);
      }
      // Round trip 1: BEGIN, the key's row, then (only when it is new) the accounts locked in id order.
      open = true;
      const rows = lastRows(
        await client.query(
          `BEGIN; EXECUTE ledger_post_begin(${[
            sqlText(client, request.kind),
            sqlText(client, request.idempotencyKey),
            sqlText(client, request.requestHash),
            sqlInt(request.operatorId ?? null),
            sqlText(client, request.reference ?? null),
            sqlText(client, request.memo ?? null),
            sqlInts(lockIds),
            request.occurredAt ? sqlText(client, request.occurredAt.toISOString()) : 'NULL',
          ].join(', ')})`,
        ),
      );
      if (!rows.length) {
        const replayed = await this.replay(runner.manager, request);
        await client.query('COMMIT');
        open = false;
        return replayed;
      }
      const tx = { id: rows[0]['tx_id'], occurred_at: rows[0]['occurred_at'] as Date | string };
      const accounts = new Map<number, LockedAccount>(system);
      for (const r of rows) {
        if (r['id'] === null) continue;
        accounts.set(num(r['id']), {
          id: num(r['id']),
          kind: r['kind'] as AccountKind,
          parentId: numOrNull(r['parent_id']),
          balanceFen: num(r['balance_fen']),
          frozen: Boolean(r['frozen']),
        });
      }
      // Only locked and system accounts are in the map: an entry on any other is refused as not found.
      const entries = applyEntries(request.kind, request.plan(accounts), accounts);
      const cached = entries.filter((e) => e.balanceAfterFen !== null);
      const write = `EXECUTE ledger_post_write(${[
        sqlInt(tx.id),
        sqlInts(entries.map((e) => e.accountId)),
        sqlInts(entries.map((e) => e.amountFen)),
        sqlInts(entries.map((e) => e.balanceBeforeFen)),
        sqlInts(entries.map((e) => e.balanceAfterFen)),
        sqlInts(cached.map((e) => e.accountId)),
        sqlInts(cached.map((e) => e.balanceAfterFen)),
      ].join(', ')})`;
      // Round trip 2: the entries and balances, and COMMIT (the sum check runs then) unless the posting
      // changes a card's authorisation: its events are written first, in the same transaction.
      if (this.cards.changesOf(accounts, entries).size) {
        await client.query(write);
        announced = await this.cards.afterPosting(runner.manager, accounts, entries);
        await client.query('COMMIT');
      } else await client.query(`${write}; COMMIT`);
      open = false;
      if (announced) this.afterAnnounce?.();
      return {
        id: num(tx.id),
        kind: request.kind,
        idempotencyKey: request.idempotencyKey,
        operatorId: request.operatorId ?? null,
        occurredAt: new Date(tx.occurred_at),
        reference: request.reference ?? null,
        memo: request.memo ?? null,
        entries,
        replayed: false,
      };
    } catch (error) {
      // A failed statement leaves the transaction aborted (or, at COMMIT, already ended): roll it back.
      if (open) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  private async replay(m: EntityManager, request: PostingRequest): Promise<PostedTransaction> {
    const [tx] = await m.query(
      `SELECT t.id, t.kind, t.request_hash, t.operator_id, t.occurred_at, t.reference, t.memo,
              json_agg(json_build_object('a', e.account_id, 'f', e.amount_fen, 'b', e.balance_before_fen,
                'x', e.balance_after_fen) ORDER BY e.id) AS entries
         FROM ledger_transaction t JOIN ledger_entry e ON e.transaction_id = t.id
        WHERE t.idempotency_key = $1 GROUP BY t.id`,
      [request.idempotencyKey],
    );
    if (!tx) throw new Error(`ledger transaction ${request.idempotencyKey} vanished`);
    if (tx.request_hash !== request.requestHash)
      throw new LedgerException(
        LedgerErrorCode.IdempotencyConflict,
        `idempotency key ${request.idempotencyKey} was used for a different request`,
        { idempotencyKey: request.idempotencyKey, transactionId: num(tx.id) },
      );
    return {
      id: num(tx.id),
      kind: tx.kind,
      idempotencyKey: request.idempotencyKey,
      operatorId: numOrNull(tx.operator_id),
      occurredAt: new Date(tx.occurred_at),
      reference: tx.reference,
      memo: tx.memo,
      entries: (tx.entries as Row[]).map((e) => ({
        accountId: num(e['a']),
        amountFen: num(e['f']),
        balanceBeforeFen: numOrNull(e['b']),
        balanceAfterFen: numOrNull(e['x']),
      })),
      replayed: true,
    };
  }

  /** Links a card (idTag) to the account it draws on (a card moved to another account is relinked). */
  async linkCard(idTag: string, accountId: number): Promise<void> {
    await this.dataSource.transaction((m) => this.cards.linkCard(m, idTag, accountId));
    this.afterAnnounce?.();
  }

  async unlinkCard(idTag: string): Promise<void> {
    await this.dataSource.transaction((m) => this.cards.unlinkCard(m, idTag));
    this.afterAnnounce?.();
  }

  async accountOfCard(idTag: string): Promise<number | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT account_id FROM ledger_card_account WHERE id_tag = $1`,
      [idTag],
    );
    return row ? num(row.account_id) : undefined;
  }

  /** The customer account an order's first consumption was posted on (an amendment follows it there). */
  async accountOfOrder(orderNo: string): Promise<number | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT CASE WHEN a.kind = 'arrears' THEN a.parent_id ELSE a.id END AS account_id
         FROM ledger_transaction t JOIN ledger_entry e ON e.transaction_id = t.id
         JOIN ledger_account a ON a.id = e.account_id AND a.kind IN ('personal', 'group', 'group_sub', 'arrears')
        WHERE t.reference = $1 AND t.kind IN ('consumption', 'consumption_amendment')
        ORDER BY t.id LIMIT 1`,
      [orderNo],
    );
    return row ? num(row.account_id) : undefined;
  }
}
