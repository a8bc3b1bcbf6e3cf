import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

export type InboxRow = {
  id: number;
  userId: number;
  title: string;
  content: string;
  sender: string;
  sendTime: Date;
  isRead: boolean;
};

export type NewInboxMessage = { title: string; content: string; sender: string; dedupeKey: string };

const COLUMNS = `id::int AS id, user_id::int AS "userId", title, content, sender, send_time AS "sendTime", is_read AS "isRead"`;

/** The only file that touches msg_inbox. */
@Injectable()
export class InboxRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts one row per user; a (user, dedupeKey) already present is left alone. Returns the new rows. */
  async insertMany(
    userIds: number[],
    message: NewInboxMessage,
    manager?: EntityManager,
  ): Promise<InboxRow[]> {
    if (userIds.length === 0) return [];
    return (await (manager ?? this.db).query(
      `INSERT INTO msg_inbox (user_id, title, content, sender, dedupe_key)
       SELECT unnest($1::bigint[]), $2, $3, $4, $5
       ON CONFLICT (user_id, dedupe_key) DO NOTHING
       RETURNING ${COLUMNS}`,
      [userIds, message.title, message.content, message.sender, message.dedupeKey],
    )) as InboxRow[];
  }

  async page(
    userId: number,
    range: { start?: Date; end?: Date },
    page: number,
    size: number,
  ): Promise<{ list: InboxRow[]; total: number }> {
    const where = `user_id = $1 AND ($2::timestamptz IS NULL OR send_time >= $2) AND ($3::timestamptz IS NULL OR send_time <= $3)`;
    const params = [userId, range.start ?? null, range.end ?? null];
    const [list, count] = await Promise.all([
      this.db.query(
        `SELECT ${COLUMNS} FROM msg_inbox WHERE ${where} ORDER BY send_time DESC, id DESC LIMIT $4 OFFSET $5`,
        [...params, size, (page - 1) * size],
      ) as Promise<InboxRow[]>,
      this.db.query(`SELECT count(*)::int AS total FROM msg_inbox WHERE ${where}`, params) as Promise<
        { total: number }[]
      >,
    ]);
    return { list, total: count[0].total };
  }

  async unread(userId: number, limit: number): Promise<InboxRow[]> {
    return (await this.db.query(
      `SELECT ${COLUMNS} FROM msg_inbox WHERE user_id = $1 AND NOT is_read ORDER BY send_time DESC, id DESC LIMIT $2`,
      [userId, limit],
    )) as InboxRow[];
  }

  async markRead(userId: number, ids: number[] | 'all'): Promise<number> {
    const [, count] = (await this.db.query(
      `UPDATE msg_inbox SET is_read = true, read_at = now()
        WHERE user_id = $1 AND NOT is_read AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))`,
      [userId, ids === 'all' ? null : ids],
    )) as [unknown, number];
    return count;
  }

  async delete(userId: number, ids: number[]): Promise<number> {
    const [, count] = (await this.db.query(
      `DELETE FROM msg_inbox WHERE user_id = $1 AND id = ANY($2::bigint[])`,
      [userId, ids],
    )) as [unknown, number];
    return count;
  }
}
