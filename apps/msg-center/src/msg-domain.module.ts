import { Module } from '@nestjs/common';
import { AlertRepository } from './alerts/alert.repository';
import { AlertsService } from './alerts/alerts.service';
import { ConfigRepository } from './configs/config.repository';
import { ConfigsService } from './configs/configs.service';
import { DictionaryRepository } from './dictionaries/dictionaries.controller';
import { GroupRepository } from './groups/group.repository';
import { GroupsService } from './groups/groups.service';
import { InboxCoreModule } from './inbox/inbox.module';
import { EventRuleRepository } from './rules/event-rule.repository';
import { EventRulesService } from './rules/event-rules.service';
import { SendLogRepository } from './send-logs/send-log.repository';
import { TemplateRepository } from './templates/template.repository';
import { TemplatesService } from './templates/templates.service';
import { outboundGuardProvider } from './shared/outbound';

const providers = [
  outboundGuardProvider,
  ConfigRepository,
  ConfigsService,
  TemplateRepository,
  TemplatesService,
  GroupRepository,
  GroupsService,
  EventRuleRepository,
  EventRulesService,
  AlertRepository,
  AlertsService,
  SendLogRepository,
  DictionaryRepository,
];

/** The message centre's repositories and services, without HTTP: shared by the service and the worker. */
@Module({ imports: [InboxCoreModule], providers, exports: [...providers, InboxCoreModule] })
export class MsgDomainModule {}
