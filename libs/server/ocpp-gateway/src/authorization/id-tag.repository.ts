import type { DataSource } from 'typeorm';
import type { LedgerCardState } from './ledger-card-states';

export type IdTagRecord = {
  idTag: string;
  status: 'Accepted' | 'Blocked' | 'Expired' | 'Invalid';
  expiryDate: Date | null;
  parentIdTag: string | null;
};

/**
 * Narrow read API over the `id_tag` read model, for the authorize hot path. A card the ledger blocks
 * (`id_tag_ledger_state`, fed by the ledger's events) reads as Blocked where `id_tag` says Accepted; an
 * Invalid or Expired card keeps saying so.
 */
export class IdTagRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Several tags in one query (the cache gathers the look-ups of a burst of starts). */
  async findMany(idTags: string[]): Promise<Map<string, IdTagRecord>> {
    const rows: {
      id_tag: string;
      status: IdTagRecord['status'];
      expiry_date: Date | null;
      parent_id_tag: string | null;
    }[] = await this.dataSource.query(
      `SELECT t.id_tag, CASE WHEN t.status = 'Accepted' AND l.blocked THEN 'Blocked' ELSE t.status END AS status,
              t.expiry_date, t.parent_id_tag
         FROM id_tag t LEFT JOIN id_tag_ledger_state l ON l.id_tag = t.id_tag
        WHERE t.id_tag = ANY($1::text[])`,
      [idTags],
    );
    return new Map(
      rows.map((row) => [
        row.id_tag,
        {
          idTag: row.id_tag,
          status: row.status,
          expiryDate: row.expiry_date,
          parentIdTag: row.parent_id_tag,
        },
      ]),
    );
  }

  /**
   * Store the ledger's states of cards (one per card), each only over an older one (last writer wins by
   * sequence); returns the cards whose state was stored.
   */
  async recordLedgerStates(states: readonly LedgerCardState[]): Promise<string[]> {
    if (!states.length) return [];
    const rows: { id_tag: string }[] = await this.dataSource.query(
      `INSERT INTO id_tag_ledger_state AS s (id_tag, blocked, reason, account_id, sequence, changed_at)
       SELECT r."idTag", r.blocked, r.reason, r."accountId", r.sequence, r."changedAt"
         FROM jsonb_to_recordset($1::jsonb)
           AS r("idTag" text, blocked boolean, reason text, "accountId" bigint, sequence bigint, "changedAt" timestamptz)
       ON CONFLICT (id_tag) DO UPDATE
         SET blocked = EXCLUDED.blocked, reason = EXCLUDED.reason, account_id = EXCLUDED.account_id,
             sequence = EXCLUDED.sequence, changed_at = EXCLUDED.changed_at, updated_at = now()
         WHERE s.sequence < EXCLUDED.sequence
       RETURNING id_tag`,
      [JSON.stringify(states)],
    );
    return rows.map((row) => row.id_tag);
  }

  /** Whether the tag has a transaction open anywhere (other than `exceptTransactionId`). */
  async hasOpenTransaction(idTag: string, exceptTransactionId?: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM ocpp_transaction WHERE id_tag = $1 AND stopped_at IS NULL AND transaction_id <> $2 LIMIT 1`,
      [idTag, exceptTransactionId ?? -1],
    );
    return rows.length > 0;
  }

  /** Every open transaction and its tag (the in-memory fallback of the ConcurrentTx check). */
  async openTransactions(): Promise<{ transactionId: number; idTag: string }[]> {
    const rows: { transaction_id: number; id_tag: string }[] = await this.dataSource.query(
      'SELECT transaction_id, id_tag FROM ocpp_transaction WHERE stopped_at IS NULL',
    );
    return rows.map((row) => ({ transactionId: row.transaction_id, idTag: row.id_tag }));
  }
}
