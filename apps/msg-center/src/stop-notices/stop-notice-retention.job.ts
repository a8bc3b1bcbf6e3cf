import { Injectable } from '@nestjs/common';
import { defineJob, HandlesJob, type JobHandler } from '@voltdepot/server-jobs';
import { StopNoticeRepository } from './stop-notice.repository';

/** A stop and its order are minutes apart; a week covers any outage of the bus or the settlement. */
export const STOP_NOTICE_RETENTION_DAYS = 7;

/** `stop-notices.retention`: hourly, deletes the notice rows older than a week (no input). */
export const StopNoticeRetentionJob = defineJob<Record<string, never>>({
  name: 'stop-notices.retention',
  attempts: 3,
  backoffMs: 60_000,
  schedule: { everyMs: 3_600_000, payload: {} },
});

@Injectable()
@HandlesJob(StopNoticeRetentionJob)
export class StopNoticeRetentionHandler implements JobHandler<Record<string, never>> {
  constructor(private readonly notices: StopNoticeRepository) {}

  /** Resolves with the number of rows deleted. */
  handle(): Promise<number> {
    return this.notices.deleteOlderThan(STOP_NOTICE_RETENTION_DAYS);
  }
}
