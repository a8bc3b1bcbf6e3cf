import { Injectable } from '@nestjs/common';
import { OutboundGuard } from '@voltdepot/server-core';
import type { ConfigRow } from '../../configs/config.repository';
import type { SendMessageJob } from '../../jobs/send-message.job';
import { ChannelSender, postRobot, requireConfig, setting } from '../channel-sender';

/** WeCom (WeChat Work) group robot. Settings: webhook (…/cgi-bin/webhook/send?key=KEY). */
@Injectable()
export class WeComSender implements ChannelSender {
  readonly channel = 2 as const;
  readonly jobName = 'send.wechat' as const;

  constructor(private readonly outbound: OutboundGuard) {}

  async send(job: SendMessageJob, maybeConfig: ConfigRow | undefined): Promise<void> {
    const config = requireConfig(maybeConfig, 'WECHAT');
    await postRobot(
      this.outbound,
      setting(config, 'webhook'),
      {
        msgtype: 'text',
        text: { content: `${job.title}\n${job.text}`, mentioned_mobile_list: job.receiver.mentions ?? [] },
      },
      'WeCom',
    );
  }
}
