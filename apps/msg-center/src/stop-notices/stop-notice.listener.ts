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
import { STOMP_STOP_NOTICE_TOPIC, type StopNotice } from '@voltdepot/shared-contracts';
import {
  EventEnvelope,
  OrderAmended,
  OrderSettled,
  OrderSettledLegacy,
  Topics,
  TransactionStopped,
} from '@voltdepot/shared-events';
import { DataSource } from 'typeorm';
import type { MsgCenterConfig } from '../app.config';
import type { InboxRow } from '../inbox/inbox.repository';
import { InboxService } from '../inbox/inbox.service';
import { PushPublisher } from '../stomp/push.publisher';
import { noticeAmountOf, stopNoticeOf, withAmount } from './stop-notice.format';
import { StopNoticeReceiverRepository } from './stop-notice-receiver.repository';
import { StopNoticeRepository } from './stop-notice.repository';

export const STOP_NOTICES_GROUP = 'msg-center.stop-notices';
/** The processed-event marks of the inbox rows of abnormal stops (the second step of a stop). */
export const STOP_INBOX_GROUP = 'msg-center.stop-notices.inbox';
/** The consumer of settled and amended orders, whose amounts join the stops' notices. */
export const STOP_AMOUNTS_GROUP = 'msg-center.stop-notices.amounts';

/**
 * TransactionStopped -> realtime notice on /user/topic/transRunStatusStop to every receiver, plus an inbox
 * row per receiver for abnormal stops; OrderSettled -> the same notice again with the order's amount;
 * OrderAmended (a review billed the order, an operator corrected it, its real stop completed a lost stop)
 * -> the notice again with the amended amount.
 * The two arrive in either order (different topics, different producers): each records its half in
 * `msg_stop_notice`, and the one recorded second pushes the notice with the amount (the stop's own
 * push when the order came first, a follow-up otherwise). Exactly once per event: each step's
 * processed-event mark commits with its work; the pushes follow the commits, so a redelivered event
 * pushes nothing.
 */
@Injectable()
export class StopNoticeListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StopNoticeListener');
  private subscriptions: Subscription[] = [];

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly db: DataSource,
    private readonly receivers: StopNoticeReceiverRepository,
    private readonly notices: StopNoticeRepository,
    private readonly inbox: InboxService,
    private readonly push: PushPublisher,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE' | 'MSG_BUS_LISTENERS'>,
  ) {}

  /** Subscribes in the background, retrying while the bus is unreachable (the service serves meanwhile). */
  onApplicationBootstrap(): void {
    if (!this.config.MSG_BUS_LISTENERS) return;
    this.subscriptions = [
      { topic: Topics.OcppTransactions, group: STOP_NOTICES_GROUP, handle: this.handle.bind(this) },
      { topic: Topics.Orders, group: STOP_AMOUNTS_GROUP, handle: this.handleOrder.bind(this) },
    ].map(({ topic, group, handle }) =>
      startConsumer(
        this.bus,
        { topics: [topic], group, handler: handle },
        {
          onRetry: (error, attempt, delayMs) =>
            this.logger.warn(
              `${group} consumer not started (attempt ${attempt}, next in ${delayMs} ms): ${(error as Error).message}`,
            ),
        },
      ),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.close()));
  }

  /**
   * Two steps, each exactly once under its own processed-event mark: the notice (a small transaction, then
   * the push) and, for an abnormal stop, the inbox rows (then their push). The notice does not wait for
   * thousands of inbox rows; a process killed between the steps resumes with the second on redelivery.
   */
  async handle(envelope: EventEnvelope, context: DeliveryContext): Promise<void> {
    if (!TransactionStopped.is(envelope)) return;
    const stop = envelope.payload;
    let notice = stopNoticeOf(stop, this.config.BUSINESS_TIME_ZONE);
    let receivers: number[] | undefined;
    await idempotent(this.db, STOP_NOTICES_GROUP, async (_e, manager) => {
      const amount = await this.notices.recordNotice(manager, stop, notice);
      if (amount) notice = withAmount(notice, amount);
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

  /**
   * The order of a stopped transaction was settled, or amended since: its amount joins the notice. Pushed
   * now (the same notice with the amount, to today's receivers) when the stop's notice went out before;
   * otherwise the stop's own push carries it. Events of one order arrive in order (one key), so the last
   * one recorded is the order's latest version. `order.settled` version 1 (reasons as sentences) is still
   * read: events published before the upgrade may wait on the bus.
   */
  async handleOrder(envelope: EventEnvelope, context: DeliveryContext): Promise<void> {
    let order: { orderNo: string; chargePointId: string; transactionId: number };
    let amount: ReturnType<typeof noticeAmountOf>;
    if (OrderSettled.is(envelope) || OrderSettledLegacy.is(envelope)) {
      order = envelope.payload;
      amount = noticeAmountOf(envelope.payload);
    } else if (OrderAmended.is(envelope)) {
      order = envelope.payload;
      amount = noticeAmountOf({ orderNo: order.orderNo, ...envelope.payload.figures });
    } else return;
    let followUp: { notice: StopNotice; receivers: number[] } | undefined;
    await idempotent(this.db, STOP_AMOUNTS_GROUP, async (_e, manager) => {
      const notice = await this.notices.recordAmount(manager, order, amount);
      if (notice)
        followUp = {
          notice: withAmount(notice, amount),
          receivers: await this.receivers.receiverIds(manager),
        };
    })(envelope, context);
    if (followUp) {
      await this.push.toUsers(followUp.receivers, STOMP_STOP_NOTICE_TOPIC, followUp.notice);
      this.logger.log(
        `stop notice amount for ${order.chargePointId} tx ${order.transactionId} to ${followUp.receivers.length} users`,
      );
    }
  }
}
