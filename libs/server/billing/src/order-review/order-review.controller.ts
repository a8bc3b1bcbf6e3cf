import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  type AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { chargingOrderDetailSchema, type ChargingOrderDetail } from '../orders-query/dto/order-query.dto';
import { CHARGING_ORDER_PERMISSIONS } from '../orders-query/orders-query.controller';
import { OrdersQueryService } from '../orders-query/orders-query.service';
import { idParamsSchema, type IdParams } from '../shared/query-params';
import {
  amendmentPreviewSchema,
  amendOrderSchema,
  amendPreviewQuerySchema,
  reviewOrderSchema,
  type AmendmentPreview,
  type AmendOrderDto,
  type AmendPreviewQuery,
  type ReviewOrderDto,
} from './dto/order-review.dto';
import { OrderReviewService } from './order-review.service';

/** The review of held or flagged orders and the amendment of settled ones; each answers the order's detail. */
@ApiTags('billing: charging orders')
@ApiBearerAuth()
@Controller('api/chargingOrder')
export class OrderReviewController {
  constructor(
    @Inject(OrderReviewService) private readonly service: OrderReviewService,
    @Inject(OrdersQueryService) private readonly orders: OrdersQueryService,
  ) {}

  /** Approve (bill) or reject an order held at settlement, or confirm a flagged one, with a reason; once. */
  @ApiDoc({
    summary: 'Approve or reject an order held or flagged for review (once)',
    response: chargingOrderDetailSchema,
    errors: [404, 409, 422],
  })
  @Post(':id/review')
  @HttpCode(200)
  @RequirePermissions(CHARGING_ORDER_PERMISSIONS.review)
  async review(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(reviewOrderSchema) dto: ReviewOrderDto,
    @CurrentPrincipal() me: AuthPrincipal,
  ): Promise<ChargingOrderDetail> {
    await this.service.review(p.id, dto, me);
    return this.orders.detail(me, p.id);
  }

  /**
   * Amend the order's meter stop (or energy): a new version, with the reason and who did it, announced by
   * `order.amended` with the difference. Idempotent by `requestId`.
   */
  @ApiDoc({
    summary: 'Amend a settled order: a new version (idempotent by requestId)',
    response: chargingOrderDetailSchema,
    errors: [404, 409, 422],
  })
  @Post(':id/amend')
  @HttpCode(200)
  @RequirePermissions(CHARGING_ORDER_PERMISSIONS.amend)
  async amend(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(amendOrderSchema) dto: AmendOrderDto,
    @CurrentPrincipal() me: AuthPrincipal,
  ): Promise<ChargingOrderDetail> {
    await this.service.amend(p.id, dto, me);
    return this.orders.detail(me, p.id);
  }

  /** The figures an amendment would give the order and the difference, without amending it. */
  @ApiDoc({
    summary: 'What an amendment would change (nothing is saved)',
    response: amendmentPreviewSchema,
    errors: [404, 422],
  })
  @Get(':id/amend/preview')
  @RequirePermissions(CHARGING_ORDER_PERMISSIONS.amend)
  preview(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodQuery(amendPreviewQuerySchema) q: AmendPreviewQuery,
    @CurrentPrincipal() me: AuthPrincipal,
  ): Promise<AmendmentPreview> {
    return this.service.previewAmendment(p.id, q, me);
  }
}
