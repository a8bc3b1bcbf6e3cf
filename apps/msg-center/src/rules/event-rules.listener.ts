import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_CONFIG } from '@voltdepot/server-core';
import { EVENT_BUS, EventBus, startConsumer, Subscription } from '@voltdepot/server-messaging';
import type { EventChannel } from '@voltdepot/shared-contracts';
import { EventEnvelope, Topics } from '@voltdepot/shared-events';
import type Redis from 'ioredis';
import type { MsgCenterConfig } from '../app.config';
import { GroupRepository } from '../groups/group.repository';
import { MessageDispatcher } from '../jobs/message-dispatcher';
import { MSG_REDIS } from '../shared/database.module';
import { conditionMatches, ruleEventOf } from './event-values';
import { EventRuleRepository, EventRuleRow } from './event-rule.repository';
import { FREQUENCY_MS } from './rule-fields';

export const EVENT_RULES_GROUP = 'msg-center.event-rules';

/**
 * Bus events (transaction stops, pile errors) matched against the event rules: each matching rule sends its
 * template to its group on its channels, at most once per frequency window per rule and target (pile/gun).
 * Idempotent: job ids derive from the event id, so a redelivered event sends nothing new.
 */
@Injectable()
export class EventRulesListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventRulesListener');
  private subscription: Subscription | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly rules: EventRuleRepository,
    private readonly groups: GroupRepository,
    private readonly dispatcher: MessageDispatcher,
    @Inject(MSG_REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<
      MsgCenterConfig,
      'BUSINESS_TIME_ZONE' | 'MSG_BUS_LISTENERS' | 'MSG_QUEUE_PREFIX'
    >,
  ) {}

  /** Subscribes in the background, retrying while the bus is unreachable (the service serves meanwhile). */
  onApplicationBootstrap(): void {
    if (!this.config.MSG_BUS_LISTENERS) return;
    this.subscription = startConsumer(
      this.bus,
      {
        topics: [Topics.OcppTransactions, Topics.OcppStatus],
        group: EVENT_RULES_GROUP,
        handler: (envelope) => this.handle(envelope),
      },
      {
        onRetry: (error, attempt, delayMs) =>
          this.logger.warn(
            `${EVENT_RULES_GROUP} consumer not started (attempt ${attempt}, next in ${delayMs} ms): ${(error as Error).message}`,
          ),
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    const event = ruleEventOf(envelope, this.config.BUSINESS_TIME_ZONE);
    if (event === undefined) return;
    for (const rule of await this.rules.enabledFor(event.eventType)) {
      if (!conditionMatches(rule.condition, event.values)) continue;
      if (!(await this.withinQuota(rule, event.target, envelope.eventId))) continue;
      const recipients = rule.groupId === null ? [] : await this.groups.recipients(rule.groupId);
      const outcome = await this.dispatcher.dispatch({
        eventKey: `${envelope.eventId}.r${rule.id}`,
        ruleKind: 'event',
        ruleId: rule.id,
        templateId: rule.templateId,
        channels: rule.channels as EventChannel[],
        recipients,
        values: event.values,
        fallback: {
          title: rule.name,
          content: Object.entries(event.values)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n'),
        },
      });
      this.logger.log(
        `rule ${rule.id} on ${event.target}: ${outcome.queued.length} queued, ${outcome.failed.length} failed`,
      );
    }
  }

  /** Throttle per rule and target: the first event of the window owns it (a redelivery of that event still passes). */
  private async withinQuota(rule: EventRuleRow, target: string, eventId: string): Promise<boolean> {
    if (rule.frequency === null) return true;
    const key = `${this.config.MSG_QUEUE_PREFIX}:throttle:event:${rule.id}:${target}`;
    const window = FREQUENCY_MS[rule.frequency as keyof typeof FREQUENCY_MS];
    if ((await this.redis.set(key, eventId, 'PX', window, 'NX')) === 'OK') return true;
    return (await this.redis.get(key)) === eventId;
  }
}
