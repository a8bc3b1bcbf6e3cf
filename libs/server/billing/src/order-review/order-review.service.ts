import type { AuthPrincipal } from '@voltdepot/server-core';
import type { OutboxRelay } from '@voltdepot/server-messaging';
import type { EntityManager } from 'typeorm';
import type { BillingDataScopeProvider } from '../shared/data-scope';
import { BUSINESS_TIME_ZONE } from '../shared/query-params';
import type {
  AmendmentPreview,
  AmendOrderDto,
  AmendPreviewQuery,
  ReviewOrderDto,
} from './dto/order-review.dto';
import { OrderReviewErrorCode, OrderReviewException } from './order-review.exception';
import { amendedState, approvedState, type Revision } from './order-revision';
import {
  figuresOf,
  OrderVersionRepository,
  type OrderState,
  type VersionedOrder,
} from './order-version.repository';
import { differenceOf, OrderVersionWriter } from './order-version.writer';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type OrderReviewStore = Pick<
  OrderVersionRepository,
  'transaction' | 'lock' | 'pricingInputs' | 'versionByRequest' | 'saveVersion' | 'recordReview'
>;

/** The request key of the version a review's approval makes (one review per order). */
const APPROVAL_KEY = 'review';

/**
 * Changes of settled orders by an operator, each one new version of the order with its `order.amended`
 * event (OrderVersionWriter): the review of a held or flagged order (approve bills a held order; a
 * flagged, billed order is confirmed as it is; reject leaves a held order unbilled) and the amendment of
 * an order's meter stop, exactly once per request key.
 */
export class OrderReviewService {
  private readonly writer: OrderVersionWriter;

  constructor(
    private readonly repository: OrderReviewStore,
    private readonly scopes: BillingDataScopeProvider,
    private readonly relay?: Pick<OutboxRelay, 'nudge'>,
    private readonly timeZone = BUSINESS_TIME_ZONE,
  ) {
    this.writer = new OrderVersionWriter(repository);
  }

  /**
   * Decide on an order held at settlement or flagged since, once. Approving a held order bills it
   * (priced from its readings, pay status unpaid: a new version); approving a flagged billed order
   * confirms it as billed; rejecting leaves a held order unbilled (a billed one is amended instead).
   */
  async review(id: number, dto: ReviewOrderDto, reviewer: AuthPrincipal): Promise<void> {
    let versioned = false;
    await this.locked(id, reviewer, async (m, order) => {
      if (!order.state.abnormalReasons.length)
        throw new OrderReviewException(
          OrderReviewErrorCode.NotHeld,
          `Charging order ${order.orderNo} was not held for review`,
        );
      if (order.review)
        throw new OrderReviewException(
          OrderReviewErrorCode.AlreadyReviewed,
          `Charging order ${order.orderNo} was already ${order.review.decision === 'approve' ? 'approved' : 'rejected'} by ${order.review.reviewer}`,
        );
      const held = order.state.payStatus === 3;
      if (dto.decision === 'reject' && !held)
        throw new OrderReviewException(
          OrderReviewErrorCode.Billed,
          `Charging order ${order.orderNo} is billed: amend it instead of rejecting it`,
        );
      if (dto.decision === 'approve' && held) {
        const next = this.revised(
          order,
          approvedState(order, await this.repository.pricingInputs(m, order), this.timeZone),
          OrderReviewErrorCode.NotBillable,
          'cannot be billed',
        );
        await this.writer.write(m, order, next, {
          kind: 'approved',
          reason: dto.reason,
          actorId: reviewer.userId,
          actorName: reviewer.username,
          requestKey: APPROVAL_KEY,
        });
        versioned = true;
      }
      const recorded = await this.repository.recordReview(m, {
        orderId: order.id,
        decision: dto.decision,
        reason: dto.reason,
        reviewerId: reviewer.userId,
        reviewer: reviewer.username,
      });
      // Only reachable if a decision slipped in past the lock: undo the billing with the transaction.
      if (!recorded)
        throw new OrderReviewException(
          OrderReviewErrorCode.AlreadyReviewed,
          `Charging order ${order.orderNo} was already reviewed`,
        );
    });
    if (versioned) this.relay?.nudge();
  }

  /**
   * Amend the order's meter stop (and so its energy and, when billed, its amounts): a new version by
   * `by`, with the reason. A retried request (same `requestId`) finds the version it made and changes
   * nothing; the same `requestId` for another change is refused.
   */
  async amend(id: number, dto: AmendOrderDto, by: AuthPrincipal): Promise<void> {
    let versioned = false;
    await this.locked(id, by, async (m, order) => {
      const meterStopWh = this.meterStopOf(order, dto);
      const made = await this.repository.versionByRequest(m, order.id, dto.requestId);
      if (made) {
        if (made.kind === 'amended' && made.after.meterStopWh === meterStopWh && made.reason === dto.reason)
          return;
        throw new OrderReviewException(
          OrderReviewErrorCode.RequestReused,
          `Request ${dto.requestId} already made version ${made.version} of charging order ${order.orderNo}`,
        );
      }
      const next = await this.amended(m, order, meterStopWh);
      await this.writer.write(m, order, next, {
        kind: 'amended',
        reason: dto.reason,
        actorId: by.userId,
        actorName: by.username,
        requestKey: dto.requestId,
      });
      versioned = true;
    });
    if (versioned) this.relay?.nudge();
  }

  /** What an amendment would make of the order, without making it. */
  async previewAmendment(id: number, q: AmendPreviewQuery, by: AuthPrincipal): Promise<AmendmentPreview> {
    return this.locked(id, by, async (m, order) => {
      const next = await this.amended(m, order, this.meterStopOf(order, q));
      return {
        version: order.version + 1,
        current: figuresOf(order.state),
        amended: figuresOf(next),
        difference: differenceOf(order.state, next),
      };
    });
  }

  /** The order locked in a transaction of its own, within the caller's data scope (else 404). */
  private async locked<T>(
    id: number,
    me: AuthPrincipal,
    work: (m: EntityManager, order: VersionedOrder) => Promise<T>,
  ): Promise<T> {
    const scope = await this.scopes.scopeOf(me.userId);
    return this.repository.transaction(async (m) => {
      const order = await this.repository.lock(m, { id, scope });
      if (!order)
        throw new OrderReviewException(OrderReviewErrorCode.NotFound, `Charging order ${id} does not exist`);
      return work(m, order);
    });
  }

  /** The meter stop a correction asks for: given, or the meter start plus the energy given. */
  private meterStopOf(order: VersionedOrder, q: { meterStopWh?: number; energyWh?: number }): number {
    if (q.meterStopWh !== undefined) return q.meterStopWh;
    if (order.meterStartWh === null)
      throw new OrderReviewException(
        OrderReviewErrorCode.NotAmendable,
        `Charging order ${order.orderNo} has no meter start: give the meter stop instead of the energy`,
      );
    return order.meterStartWh + q.energyWh!;
  }

  private async amended(m: EntityManager, order: VersionedOrder, meterStopWh: number): Promise<OrderState> {
    if (meterStopWh === order.state.meterStopWh)
      throw new OrderReviewException(
        OrderReviewErrorCode.NothingToAmend,
        `Charging order ${order.orderNo} already stops at ${meterStopWh} Wh`,
      );
    return this.revised(
      order,
      amendedState(order, await this.repository.pricingInputs(m, order), meterStopWh, this.timeZone),
      OrderReviewErrorCode.NotAmendable,
      'cannot be amended',
    );
  }

  private revised(
    order: VersionedOrder,
    revision: Revision,
    code: OrderReviewErrorCode,
    what: string,
  ): OrderState {
    if ('problems' in revision)
      throw new OrderReviewException(
        code,
        `Charging order ${order.orderNo} ${what}: ${revision.problems.join('; ')}`,
        { problems: revision.problems },
      );
    return revision.state;
  }
}
