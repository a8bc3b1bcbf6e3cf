import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  type AuthPrincipal,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { sendXlsx } from '@voltdepot/server-spreadsheet';
import type { z } from 'zod';
import { ORDER_COLUMNS } from './billing-exports';
import { GridPageRoute } from '../shared/grid-page-route';
import { idParamsSchema, type GridPageParams, type IdParams } from '../shared/query-params';
import {
  chargingOrderDetailSchema,
  chargingOrderPageSchema,
  orderExportSchema,
  orderFilterOptionsSchema,
  type OrderQuery,
  orderQuerySchema,
  type ChargingOrderDetail,
  type ChargingOrderPage,
  type OrderFilterOptions,
} from './dto/order-query.dto';
import { OrdersQueryService } from './orders-query.service';

export const CHARGING_ORDER_PERMISSIONS = {
  view: 'charging_order:view',
  export: 'charging_order:export',
  review: 'charging_order:review',
  amend: 'charging_order:amend',
} as const;

/** The most rows one export writes (newest first). */
export const ORDER_EXPORT_LIMIT = 100_000;
const EXPORT_BATCH = 1_000;

@ApiTags('billing: charging orders')
@ApiBearerAuth()
@Controller('api/chargingOrder')
export class OrdersQueryController {
  constructor(@Inject(OrdersQueryService) private readonly service: OrdersQueryService) {}

  /** The order query: filters as query parameters; `totals` sums every matching order, not just the page. */
  @ApiDoc({ response: chargingOrderPageSchema })
  @GridPageRoute(CHARGING_ORDER_PERMISSIONS.view, orderQuerySchema)
  page(me: AuthPrincipal, p: GridPageParams, q: OrderQuery): Promise<ChargingOrderPage> {
    return this.service.page(me, q, p.page, p.size);
  }

  /** Stations, piles and guns for the filters. */
  @ApiDoc({ summary: 'Stations, piles and guns for the filters', response: orderFilterOptionsSchema })
  @Get('options')
  @RequirePermissions(CHARGING_ORDER_PERMISSIONS.view)
  options(@CurrentPrincipal() me: AuthPrincipal): Promise<OrderFilterOptions> {
    return this.service.filterOptions(me);
  }

  /** The filtered list as .xlsx (`held=true`: the abnormal orders), headers in Chinese or English. */
  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('export/xlsx')
  @RequirePermissions(CHARGING_ORDER_PERMISSIONS.export)
  async export(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(orderExportSchema) q: z.output<typeof orderExportSchema>,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const zh = q.lang === 'zh-CN';
    const name = q.held
      ? zh
        ? '异常订单.xlsx'
        : 'abnormal-orders.xlsx'
      : zh
        ? '充电订单.xlsx'
        : 'charging-orders.xlsx';
    await sendXlsx(
      res,
      name,
      q.held ? 'abnormal-orders' : 'charging-orders',
      ORDER_COLUMNS,
      this.service.rows(me, q, EXPORT_BATCH, ORDER_EXPORT_LIMIT),
      q.lang,
    );
  }

  /** The session (order) detail: amounts by band, meter series for the charts, what happened to it. */
  @ApiDoc({
    summary: 'The order with its bands, meter series and history',
    response: chargingOrderDetailSchema,
    errors: [404],
  })
  @Get(':id')
  @RequirePermissions(CHARGING_ORDER_PERMISSIONS.view)
  detail(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
  ): Promise<ChargingOrderDetail> {
    return this.service.detail(me, p.id);
  }
}
