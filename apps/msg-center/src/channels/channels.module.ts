import { Module } from '@nestjs/common';
import { ChannelWorkers } from '../jobs/channel-workers';
import { MsgDomainModule } from '../msg-domain.module';
import { CHANNEL_SENDERS, ChannelSender } from './channel-sender';
import { DingTalkSender } from './dingtalk/dingtalk.sender';
import { EmailSender } from './email/email.sender';
import { InboxSender } from './inbox/inbox.sender';
import { SmsSender } from './sms/sms.sender';
import { WeComSender } from './wechat/wecom.sender';

const senders = [SmsSender, EmailSender, WeComSender, DingTalkSender, InboxSender];

/** The channel senders and the BullMQ workers running them (worker process). Needs DispatchModule's options. */
@Module({
  imports: [MsgDomainModule],
  providers: [
    ...senders,
    { provide: CHANNEL_SENDERS, inject: senders, useFactory: (...all: ChannelSender[]) => all },
    ChannelWorkers,
  ],
})
export class ChannelsModule {}
