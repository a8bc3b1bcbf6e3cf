import { Module } from '@nestjs/common';
import { InboxCoreModule } from '../inbox/inbox.module';
import { MsgDomainModule } from '../msg-domain.module';
import { EventRulesListener } from '../rules/event-rules.listener';
import { StopNoticeReceiverRepository } from './stop-notice-receiver.repository';
import { StopNoticeListener } from './stop-notice.listener';

/** Bus listeners of the HTTP service: realtime stop notices and event rules. */
@Module({
  imports: [InboxCoreModule, MsgDomainModule],
  providers: [StopNoticeReceiverRepository, StopNoticeListener, EventRulesListener],
})
export class StopNoticesModule {}
