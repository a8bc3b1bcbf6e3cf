import { Module } from '@nestjs/common';
import { AlertsController } from './alerts/alerts.controller';
import { PrometheusTargetsController } from './alerts/prometheus-targets.controller';
import { ConfigsController } from './configs/configs.controller';
import { DictionariesController } from './dictionaries/dictionaries.controller';
import { GroupsController } from './groups/groups.controller';
import { InboxController } from './inbox/inbox.controller';
import { MsgDomainModule } from './msg-domain.module';
import { EventRulesController } from './rules/event-rules.controller';
import { SendLogsController } from './send-logs/send-logs.controller';
import { TemplatesController } from './templates/templates.controller';

/** The REST API under /ms/m1/msg (platform-and-messaging §7). Every route is guarded (deny by default). */
@Module({
  imports: [MsgDomainModule],
  controllers: [
    DictionariesController,
    ConfigsController,
    TemplatesController,
    GroupsController,
    EventRulesController,
    SendLogsController,
    AlertsController,
    PrometheusTargetsController,
    InboxController,
  ],
})
export class MsgHttpModule {}
