import { Injectable } from '@nestjs/common';
import { InboxService } from '../../inbox/inbox.service';
import type { SendMessageJob } from '../../jobs/send-message.job';
import { ChannelError, ChannelSender } from '../channel-sender';

/** In-site message: an inbox row (once per job id) pushed to the user's STOMP sessions. */
@Injectable()
export class InboxSender implements ChannelSender {
  readonly channel = 4 as const;
  readonly jobName = 'send.websocket' as const;

  constructor(private readonly inbox: InboxService) {}

  async send(job: SendMessageJob): Promise<void> {
    if (job.receiver.userId === null) throw new ChannelError('In-site messages need a user receiver');
    const rows = await this.inbox.store([job.receiver.userId], {
      title: job.title,
      content: job.html,
      sender: '系统',
      dedupeKey: job.jobId,
    });
    await this.inbox.pushNew(rows);
  }
}
