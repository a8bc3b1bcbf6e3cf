import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  type AuthPrincipal,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodQuery,
} from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import { sendXlsx } from '@voltdepot/server-spreadsheet';
import type { z } from 'zod';
import { GridPageRoute } from '../shared/grid-page-route';
import { exportLanguageSchema, type GridPageParams } from '../shared/query-params';
import {
  orderOperationPageSchema,
  type OrderOperationQuery,
  orderOperationQuerySchema,
  type OrderOperationView,
} from './dto/order-operation.dto';
import { ORDER_OPERATION_COLUMNS } from './order-operation-exports';
import { OrderOperationsService } from './order-operations.service';

export const ORDER_OPERATION_PERMISSIONS = {
  view: 'order_operation:view',
  export: 'order_operation:export',
} as const;

const BATCH = 500;
/** The most rows one export writes (newest first). */
const LIMIT = 100_000;

const exportSchema = orderOperationQuerySchema.and(exportLanguageSchema);

/** The order operation log (console page /operation/orderManage/operationLog), newest action first. */
@ApiTags('billing: order operation log')
@ApiBearerAuth()
@Controller('api/orderOperation')
export class OrderOperationsController {
  constructor(@Inject(OrderOperationsService) private readonly service: OrderOperationsService) {}

  @ApiDoc({ response: orderOperationPageSchema })
  @GridPageRoute(ORDER_OPERATION_PERMISSIONS.view, orderOperationQuerySchema)
  page(me: AuthPrincipal, p: GridPageParams, q: OrderOperationQuery): Promise<GridPage<OrderOperationView>> {
    return this.service.page(me, q, p.page, p.size);
  }

  /** The list as .xlsx, with its filters and the caller's data scope. */
  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('export/xlsx')
  @RequirePermissions(ORDER_OPERATION_PERMISSIONS.export)
  async export(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(exportSchema) q: z.output<typeof exportSchema>,
    @Res() res: HttpResponse,
  ): Promise<void> {
    await sendXlsx(
      res,
      q.lang === 'zh-CN' ? '订单操作日志.xlsx' : 'order-operation-log.xlsx',
      'order-operations',
      ORDER_OPERATION_COLUMNS,
      this.service.rows(me, q, BATCH, LIMIT),
      q.lang,
    );
  }
}
