import { Module } from '@nestjs/common';
import { JobsModule } from '@voltdepot/server-jobs';
import { InboxCoreModule } from '../inbox/inbox.module';
import { MsgDomainModule } from '../msg-domain.module';
import { EventRulesListener } from '../rules/event-rules.listener';
import { StopNoticeReceiverRepository } from './stop-notice-receiver.repository';
import { StopNoticeListener } from './stop-notice.listener';
import { StopNoticeRepository } from './stop-notice.repository';
import { StopNoticeRetentionHandler, StopNoticeRetentionJob } from './stop-notice-retention.job';

/** Bus listeners of the HTTP service: realtime stop notices (with their orders' amounts) and event rules. */
@Module({
  imports: [InboxCoreModule, MsgDomainModule],
  providers: [StopNoticeReceiverRepository, StopNoticeRepository, StopNoticeListener, EventRulesListener],
})
export class StopNoticesModule {}

/** The worker's part: the hourly clean-up of the notices' rows. Needs `JobsModule.forRoot`. */
@Module({
  imports: [JobsModule.forFeature([StopNoticeRetentionJob])],
  providers: [StopNoticeRepository, StopNoticeRetentionHandler],
})
export class StopNoticeRetentionModule {}
