import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { OutboundGuard } from '@voltdepot/server-core';
import type { ConfigRow } from '../../configs/config.repository';
import type { SendMessageJob } from '../../jobs/send-message.job';
import { ChannelSender, postRobot, requireConfig, setting } from '../channel-sender';

/** DingTalk robot signature: base64(HMAC-SHA256(secret, `${timestamp}\n${secret}`)), URL-encoded. */
export function dingTalkSign(timestamp: number, secret: string): string {
  return encodeURIComponent(
    createHmac('sha256', secret).update(`${timestamp}\n${secret}`, 'utf8').digest('base64'),
  );
}

export function signedDingTalkUrl(webhook: string, secret: string | undefined, now = Date.now()): string {
  if (!secret) return webhook;
  const url = new URL(webhook);
  return `${url.toString()}${url.search ? '&' : '?'}timestamp=${now}&sign=${dingTalkSign(now, secret)}`;
}

/** DingTalk group robot. Settings: webhook, secret (signing). Config provider TEXT (default) or LINK. */
@Injectable()
export class DingTalkSender implements ChannelSender {
  readonly channel = 3 as const;
  readonly jobName = 'send.ddtalk' as const;

  constructor(private readonly outbound: OutboundGuard) {}

  async send(job: SendMessageJob, maybeConfig: ConfigRow | undefined): Promise<void> {
    const config = requireConfig(maybeConfig, 'DDTALK');
    const url = signedDingTalkUrl(
      setting(config, 'webhook'),
      config.settings['secret'] as string | undefined,
    );
    const body =
      config.provider === 'LINK'
        ? {
            msgtype: 'link',
            link: {
              title: job.title,
              text: job.text,
              messageUrl: job.link ?? String(config.settings['messageUrl'] ?? ''),
              picUrl: String(config.settings['picUrl'] ?? ''),
            },
          }
        : {
            msgtype: 'text',
            text: { content: `${job.title}\n${job.text}` },
            at: { atMobiles: job.receiver.mentions ?? [], isAtAll: false },
          };
    await postRobot(this.outbound, url, body, 'DingTalk');
  }
}
