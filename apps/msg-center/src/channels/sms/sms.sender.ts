import { Injectable } from '@nestjs/common';
import { OutboundGuard } from '@voltdepot/server-core';
import type { ConfigRow } from '../../configs/config.repository';
import type { SendMessageJob } from '../../jobs/send-message.job';
import { ChannelError, ChannelSender, checkEndpoint, requireConfig, setting } from '../channel-sender';
import { ALIYUN_ENDPOINT, sendAliyunSms } from './aliyun-sms.client';
import { sendTencentSms, TENCENT_ENDPOINT } from './tencent-sms.client';

/** SMS through the config's provider (ALIYUN or TENCENT); the template's msgKey is the provider template. */
@Injectable()
export class SmsSender implements ChannelSender {
  readonly channel = 0 as const;
  readonly jobName = 'send.sms' as const;

  constructor(private readonly outbound: OutboundGuard) {}

  async send(job: SendMessageJob, maybeConfig: ConfigRow | undefined): Promise<void> {
    const config = requireConfig(maybeConfig, 'SMS');
    if (!job.msgKey) throw new ChannelError('The SMS template has no provider template code (msgKey)');
    const s = config.settings;
    switch (config.provider) {
      case 'ALIYUN':
        await checkEndpoint(this.outbound, String(s['endpoint'] ?? ALIYUN_ENDPOINT), 'Aliyun SMS');
        await sendAliyunSms(
          {
            accessKeyId: setting(config, 'accessKeyId'),
            accessKeySecret: setting(config, 'accessKeySecret'),
            signName: setting(config, 'signName'),
            endpoint: s['endpoint'] as string | undefined,
            protocol: s['protocol'] as 'http' | 'https' | undefined,
          },
          job.receiver.address,
          job.msgKey,
          job.params,
        );
        return;
      case 'TENCENT':
        await checkEndpoint(this.outbound, String(s['endpoint'] ?? TENCENT_ENDPOINT), 'Tencent SMS');
        await sendTencentSms(
          {
            secretId: setting(config, 'secretId'),
            secretKey: setting(config, 'secretKey'),
            sdkAppId: setting(config, 'sdkAppId'),
            signName: setting(config, 'signName'),
            region: s['region'] as string | undefined,
            endpoint: s['endpoint'] as string | undefined,
            protocol: s['protocol'] as 'http://' | 'https://' | undefined,
          },
          job.receiver.address,
          job.msgKey,
          job.params,
        );
        return;
      default:
        throw new ChannelError(`Unknown SMS provider '${config.provider ?? ''}' (ALIYUN or TENCENT)`);
    }
  }
}
