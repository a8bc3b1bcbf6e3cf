import { Injectable } from '@nestjs/common';
import type { GridPage, SendLogDto } from '@voltdepot/shared-contracts';
import { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import { Filters, optionalText, pageOf, PageParams } from '../shared/grid';

export const sendLogQuerySchema = z.object({
  status: optionalText,
  channel: z.coerce.number().int().min(0).max(4).optional(),
  receiver: optionalText,
  eventKey: optionalText,
});
export type SendLogQuery = z.infer<typeof sendLogQuerySchema>;

export type NewSendLog = {
  jobId: string;
  eventKey: string;
  ruleKind: string;
  ruleId: number | null;
  channel: number;
  receiverUserId: number | null;
  receiver: string;
  title: string | null;
  content: string | null;
  status?: 'PENDING' | 'FAILED';
  error?: string | null;
};

const SELECT = `id::int AS id, job_id AS "jobId", event_key AS "eventKey", rule_kind AS "ruleKind", rule_id::int AS "ruleId",
  channel, receiver_user_id::int AS "receiverUserId", receiver, title, content, status, attempts, error,
  created_at AS "createTime", sent_at AS "sentTime"`;

/** The only file that touches msg_send_log: one row per job (event x receiver x channel). */
@Injectable()
export class SendLogRepository {
  constructor(private readonly db: DataSource) {}

  page(query: SendLogQuery, page: PageParams): Promise<GridPage<SendLogDto>> {
    const filters = new Filters()
      .eq('status', query.status)
      .eq('channel', query.channel)
      .like('receiver', query.receiver)
      .eq('event_key', query.eventKey);
    return pageOf(this.db, { select: SELECT, from: 'msg_send_log', filters, orderBy: 'id DESC' }, page);
  }

  /** Inserts the row unless the job id already has one; true when inserted. */
  async insert(log: NewSendLog, manager?: EntityManager): Promise<boolean> {
    const rows = (await (manager ?? this.db).query(
      `INSERT INTO msg_send_log (job_id, event_key, rule_kind, rule_id, channel, receiver_user_id, receiver, title, content, status, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (job_id) DO NOTHING RETURNING id`,
      [
        log.jobId,
        log.eventKey,
        log.ruleKind,
        log.ruleId,
        log.channel,
        log.receiverUserId,
        log.receiver,
        log.title,
        log.content,
        log.status ?? 'PENDING',
        log.error ?? null,
      ],
    )) as unknown[];
    return rows.length > 0;
  }

  async status(jobId: string): Promise<string | undefined> {
    const rows = (await this.db.query(`SELECT status FROM msg_send_log WHERE job_id = $1`, [jobId])) as {
      status: string;
    }[];
    return rows[0]?.status;
  }

  async markSent(jobId: string, attempts: number): Promise<void> {
    await this.db.query(
      `UPDATE msg_send_log SET status = 'SUCCESS', attempts = $2, error = NULL, sent_at = now(), updated_at = now() WHERE job_id = $1`,
      [jobId, attempts],
    );
  }

  async markFailed(jobId: string, attempts: number, error: string, final: boolean): Promise<void> {
    await this.db.query(
      `UPDATE msg_send_log SET status = $4, attempts = $2, error = $3, updated_at = now() WHERE job_id = $1`,
      [jobId, attempts, error.slice(0, 2000), final ? 'FAILED' : 'RETRYING'],
    );
  }
}
