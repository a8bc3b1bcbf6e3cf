import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  type AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodParams,
} from '@voltdepot/server-core';
import { GridPageRoute } from '../shared/grid-page-route';
import { idParamsSchema, type GridPageParams, type IdParams } from '../shared/query-params';
import {
  type OccupationOrderPage,
  occupationOrderPageSchema,
  type OccupationOrderQuery,
  occupationOrderQuerySchema,
  type OccupationOrderView,
  occupationOrderViewSchema,
} from './dto/occupation-order.dto';
import { OccupationOrdersService } from './occupation-orders.service';

export const OCCUPATION_ORDER_PERMISSIONS = { view: 'occupation_order:view' } as const;

/** Occupation fee orders (console page /operation/orderManage/occupationOrder), newest occupation first. */
@ApiTags('billing: occupation fee orders')
@ApiBearerAuth()
@Controller('api/occupationOrder')
export class OccupationOrdersController {
  constructor(@Inject(OccupationOrdersService) private readonly service: OccupationOrdersService) {}

  @ApiDoc({ response: occupationOrderPageSchema })
  @GridPageRoute(OCCUPATION_ORDER_PERMISSIONS.view, occupationOrderQuerySchema)
  page(me: AuthPrincipal, p: GridPageParams, q: OccupationOrderQuery): Promise<OccupationOrderPage> {
    return this.service.page(me, q, p.page, p.size);
  }

  @ApiDoc({ response: occupationOrderViewSchema, errors: [404] })
  @Get(':id')
  @RequirePermissions(OCCUPATION_ORDER_PERMISSIONS.view)
  get(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
  ): Promise<OccupationOrderView> {
    return this.service.get(me, p.id);
  }
}
