import type { DataSource } from 'typeorm';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { MessageLogFrameDto, MessageLogQuery } from './dto/message-log.dto';

type Row = Omit<MessageLogFrameDto, 'loggedAt'> & { loggedAt: Date };

/** Reads the `ocpp_message_log` that MessageLogWriter fills. */
export class MessageLogRepository {
  constructor(private readonly dataSource: Pick<DataSource, 'query'>) {}

  /**
   * A page of one pile's frames in [from, to), newest first. Served by the index on
   * (charge_point_id, logged_at); the range is at most 7 days, so the count stays bounded too.
   */
  async page(
    chargePointId: string,
    query: MessageLogQuery,
    page: number,
    size: number,
  ): Promise<GridPage<MessageLogFrameDto>> {
    const params: unknown[] = [chargePointId, query.from, query.to];
    let where = 'charge_point_id = $1 AND logged_at >= $2 AND logged_at < $3';
    if (query.direction) where += ` AND direction = $${params.push(query.direction)}`;
    if (query.action) where += ` AND action = $${params.push(query.action)}`;
    if (query.messageId) where += ` AND message_id = $${params.push(query.messageId)}`;
    const [rows, count] = await Promise.all([
      this.dataSource.query(
        `SELECT id::text AS id, charge_point_id AS "chargePointId", direction, message_type AS "messageType",
                message_id AS "messageId", action, frame, logged_at AS "loggedAt"
           FROM ocpp_message_log WHERE ${where}
          ORDER BY logged_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, size, (page - 1) * size],
      ) as Promise<Row[]>,
      this.dataSource.query(
        `SELECT count(*)::int AS total FROM ocpp_message_log WHERE ${where}`,
        params,
      ) as Promise<{ total: number }[]>,
    ]);
    return {
      list: rows.map((row) => ({ ...row, loggedAt: row.loggedAt.toISOString() })),
      total: count[0]?.total ?? 0,
    };
  }
}
