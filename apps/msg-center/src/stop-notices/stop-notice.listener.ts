import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_CONFIG } from '@voltdepot/server-core';
import {
  DeliveryContext,
  EVENT_BUS,
  EventBus,
  idempotent,
  startConsumer,
  Subscription,
} from '@voltdepot/server-messaging';
import { STOMP_STOP_NOTICE_TOPIC } from '@voltdepot/shared-contracts';
import { EventEnvelope, Topics, TransactionStopped } from '@voltdepot/shared-events';
import { DataSource } from 'typeorm';
import type { MsgCenterConfig } from '../app.config';
import type { InboxRow } from '../inbox/inbox.repository';
import { InboxService } from '../inbox/inbox.service';
import { PushPublisher } from '../stomp/push.publisher';
import { stopNoticeOf } from './stop-notice.format';
import { StopNoticeReceiverRepository } from './stop-notice-receiver.repository';

export const STOP_NOTICES_GROUP = 'msg-center.stop-notices';
/** The processed-event marks of the inbox rows of abnormal stops (the second step of a stop). */
export const STOP_INBOX_GROUP = 'msg-center.stop-notices.inbox';

/**
 * TransactionStopped -> realtime notice on /user/topic/transRunStatusStop to every receiver, plus an inbox
 * row per receiver for abnormal stops. Exactly once per event: each step's processed-event mark commits
 * with its work (the inbox rows); the pushes follow the commits, so a redelivered event pushes nothing.
 */
@Injectable()
export class StopNoticeListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StopNoticeListener');
  private subscription: Subscription | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly db: DataSource,
    private readonly receivers: StopNoticeReceiverRepository,
    private readonly inbox: InboxService,
    private readonly push: PushPublisher,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE' | 'MSG_BUS_LISTENERS'>,
  ) {}

  /** Subscribes in the background, retrying while the bus is unreachable (the service serves meanwhile). */
  onApplicationBootstrap(): void {
    if (!this.config.MSG_BUS_LISTENERS) return;
    this.subscription = startConsumer(
      this.bus,
      {
        topics: [Topics.OcppTransactions],
        group: STOP_NOTICES_GROUP,
        handler: (envelope, context) => this.handle(envelope, context),
      },
      {
        onRetry: (error, attempt, delayMs) =>
          this.logger.warn(
            `${STOP_NOTICES_GROUP} consumer not started (attempt ${attempt}, next in ${delayMs} ms): ${(error as Error).message}`,
          ),
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  /**
   * Two steps, each exactly once under its own processed-event mark: the notice (a small transaction, then
   * the push) and, for an abnormal stop, the inbox rows (then their push). The notice does not wait for
   * thousands of inbox rows; a process killed between the steps resumes with the second on redelivery.
   */
  async handle(envelope: EventEnvelope, context: DeliveryContext): Promise<void> {
    if (!TransactionStopped.is(envelope)) return;
    const stop = envelope.payload;
    const notice = stopNoticeOf(stop, this.config.BUSINESS_TIME_ZONE);
    let receivers: number[] | undefined;
    await idempotent(this.db, STOP_NOTICES_GROUP, async (_e, manager) => {
      receivers = await this.receivers.receiverIds(manager);
    })(envelope, context);
    if (receivers !== undefined) {
      await this.push.toUsers(receivers, STOMP_STOP_NOTICE_TOPIC, notice);
      this.logger.log(
        `stop notice for ${stop.chargePointId}/${stop.connectorId} tx ${stop.transactionId} to ${receivers.length} users`,
      );
    }
    if (stop.stopKind === 'normal') return;
    let rows: InboxRow[] | undefined;
    await idempotent(this.db, STOP_INBOX_GROUP, async (_e, manager) => {
      rows = await this.inbox.store(
        receivers ?? (await this.receivers.receiverIds(manager)),
        {
          title: '充电异常停止告警',
          content: notice.msg,
          sender: '系统',
          dedupeKey: `stop:${envelope.eventId}`,
        },
        manager,
      );
    })(envelope, context);
    if (rows !== undefined) await this.inbox.pushNew(rows);
  }
}
