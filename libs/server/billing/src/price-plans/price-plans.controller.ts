import { Controller, Delete, Get, HttpCode, Inject, Post, Put } from '@nestjs/common';
import {
  ApiDoc,
  idResponseSchema,
  type AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodBody,
  ZodParams,
} from '@voltdepot/server-core';
import { z } from 'zod';
import {
  gridPageParamsSchema,
  serialIdParamsSchema,
  type GridPageParams,
  type IdParams,
} from '../shared/query-params';
import {
  type AssignPricePlanDto,
  assignPricePlanSchema,
  pricePlanPageSchema,
  pricePlanViewSchema,
  type SavePricePlanDto,
  savePricePlanSchema,
  type StationPricePlanView,
  stationPricePlanViewSchema,
} from './dto/price-plan.dto';
import { PricePlansService } from './price-plans.service';

export const PRICE_PLAN_PERMISSIONS = { view: 'price_plan:view', edit: 'price_plan:edit' } as const;

const stationParamsSchema = z.object({ stationId: serialIdParamsSchema.shape.id });

@Controller('api/pricePlan')
export class PricePlansController {
  constructor(@Inject(PricePlansService) private readonly service: PricePlansService) {}

  @ApiDoc({ response: pricePlanPageSchema })
  @Get('page/:page/size/:size')
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.view)
  page(@ZodParams(gridPageParamsSchema) params: GridPageParams) {
    return this.service.page(params.page, params.size);
  }

  @ApiDoc({ response: pricePlanViewSchema, errors: [404] })
  @Get(':id')
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.view)
  get(@ZodParams(serialIdParamsSchema) { id }: IdParams) {
    return this.service.get(id);
  }

  @ApiDoc({ summary: 'Add a plan; answers its id', response: idResponseSchema, errors: [409, 422] })
  @Post()
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.edit)
  create(@ZodBody(savePricePlanSchema) dto: SavePricePlanDto) {
    return this.service.create(dto);
  }

  @ApiDoc({ summary: 'Modify a plan; answers its id', response: idResponseSchema, errors: [404, 409, 422] })
  @Put(':id')
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.edit)
  update(
    @ZodParams(serialIdParamsSchema) { id }: IdParams,
    @ZodBody(savePricePlanSchema) dto: SavePricePlanDto,
  ) {
    return this.service.update(id, dto);
  }

  @ApiDoc({ errors: [404, 409] })
  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.edit)
  async remove(@ZodParams(serialIdParamsSchema) { id }: IdParams) {
    await this.service.remove(id);
  }

  /** The station's plan from `effectiveFrom` (now when absent; never in the past). */
  @ApiDoc({ summary: "Set the station's plan from effectiveFrom (now when absent)", errors: [404, 422] })
  @Post('station/:stationId')
  @HttpCode(204)
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.edit)
  async assign(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(stationParamsSchema) { stationId }: { stationId: number },
    @ZodBody(assignPricePlanSchema) dto: AssignPricePlanDto,
  ) {
    await this.service.assignToStation(me, stationId, dto);
  }

  /** The station's plan history, newest first: plan, from, until. */
  @ApiDoc({
    summary: "The station's plan history, newest first",
    response: z.array(stationPricePlanViewSchema),
    errors: [404],
  })
  @Get('station/:stationId')
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.view)
  stationHistory(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(stationParamsSchema) { stationId }: { stationId: number },
  ): Promise<StationPricePlanView[]> {
    return this.service.stationHistory(me, stationId);
  }
}
