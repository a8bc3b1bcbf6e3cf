import { Injectable } from '@nestjs/common';
import type { StopNotice } from '@voltdepot/shared-contracts';
import { DataSource, type EntityManager } from 'typeorm';

/** The transaction a stop notice is about. */
export type NoticeKey = { chargePointId: string; transactionId: number };

/** The settled order's part of a notice. */
export type NoticeAmount = { orderNo: string; totalFen: number; held: boolean };

type Row = {
  notice: StopNotice | null;
  order_no: string | null;
  total_fen: string | null;
  order_held: boolean | null;
};

/**
 * The notice and the order's amount of each stopped transaction (`msg_stop_notice`), so that whichever of
 * the stop and the settled order is recorded second finds the other. Both writes are upserts that return
 * the row as committed: a second writer waits on the first one's row lock (or its unique-key insert), so
 * of two racing writers exactly one sees the other's half.
 */
@Injectable()
export class StopNoticeRepository {
  constructor(private readonly db: DataSource) {}

  /** Records the stop's notice; the order's amount when it was settled before. */
  async recordNotice(
    m: EntityManager,
    key: NoticeKey,
    notice: StopNotice,
  ): Promise<NoticeAmount | undefined> {
    const [row] = (await m.query(
      `INSERT INTO msg_stop_notice (charge_point_id, transaction_id, notice) VALUES ($1, $2, $3)
       ON CONFLICT (charge_point_id, transaction_id)
         DO UPDATE SET notice = EXCLUDED.notice, updated_at = now()
       RETURNING notice, order_no, total_fen, order_held`,
      [key.chargePointId, key.transactionId, JSON.stringify(notice)],
    )) as Row[];
    return amountOf(row);
  }

  /** Records the order's amount; the stop's notice when it was pushed before. */
  async recordAmount(
    m: EntityManager,
    key: NoticeKey,
    amount: NoticeAmount,
  ): Promise<StopNotice | undefined> {
    const [row] = (await m.query(
      `INSERT INTO msg_stop_notice (charge_point_id, transaction_id, order_no, total_fen, order_held)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (charge_point_id, transaction_id)
         DO UPDATE SET order_no = EXCLUDED.order_no, total_fen = EXCLUDED.total_fen,
                       order_held = EXCLUDED.order_held, updated_at = now()
       RETURNING notice, order_no, total_fen, order_held`,
      [key.chargePointId, key.transactionId, amount.orderNo, amount.totalFen, amount.held],
    )) as Row[];
    return row?.notice ?? undefined;
  }

  /** Deletes the rows not touched for `days`; returns how many. */
  async deleteOlderThan(days: number): Promise<number> {
    const [, count] = (await this.db.query(
      `DELETE FROM msg_stop_notice WHERE updated_at < now() - make_interval(days => $1)`,
      [days],
    )) as [unknown, number];
    return count;
  }
}

function amountOf(row: Row | undefined): NoticeAmount | undefined {
  if (!row || row.order_no === null || row.total_fen === null) return undefined;
  return { orderNo: row.order_no, totalFen: Number(row.total_fen), held: row.order_held === true };
}
