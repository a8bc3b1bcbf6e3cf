import type { DataSource } from 'typeorm';

export type IdTagRecord = {
  idTag: string;
  status: 'Accepted' | 'Blocked' | 'Expired' | 'Invalid';
  expiryDate: Date | null;
  parentIdTag: string | null;
};

/** Narrow read API over the `id_tag` read model, for the authorize hot path. */
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
      'SELECT id_tag, status, expiry_date, parent_id_tag FROM id_tag WHERE id_tag = ANY($1::text[])',
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
