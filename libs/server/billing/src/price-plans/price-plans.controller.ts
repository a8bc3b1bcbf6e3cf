import { Controller, Delete, Get, HttpCode, Inject, Param, ParseIntPipe, Post, Put } from '@nestjs/common';
import { RequirePermissions, ZodBody, ZodParams } from '@voltdepot/server-core';
import {
  assignPricePlanSchema,
  pageParamsSchema,
  savePricePlanSchema,
  type AssignPricePlanDto,
  type SavePricePlanDto,
} from './dto/price-plan.dto';
import { PricePlansService } from './price-plans.service';

export const PRICE_PLAN_PERMISSIONS = { view: 'price_plan:view', edit: 'price_plan:edit' } as const;

@Controller('api/pricePlan')
export class PricePlansController {
  constructor(@Inject(PricePlansService) private readonly service: PricePlansService) {}

  @Get('page/:page/size/:size')
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.view)
  page(@ZodParams(pageParamsSchema) params: { page: number; size: number }) {
    return this.service.page(params.page, params.size);
  }

  @Get(':id')
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.view)
  get(@Param('id', ParseIntPipe) id: number) {
    return this.service.get(id);
  }

  @Post()
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.edit)
  create(@ZodBody(savePricePlanSchema) dto: SavePricePlanDto) {
    return this.service.create(dto);
  }

  @Put(':id')
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.edit)
  update(@Param('id', ParseIntPipe) id: number, @ZodBody(savePricePlanSchema) dto: SavePricePlanDto) {
    return this.service.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.edit)
  async remove(@Param('id', ParseIntPipe) id: number) {
    await this.service.remove(id);
  }

  @Post('station/:stationId')
  @HttpCode(204)
  @RequirePermissions(PRICE_PLAN_PERMISSIONS.edit)
  async assign(
    @Param('stationId', ParseIntPipe) stationId: number,
    @ZodBody(assignPricePlanSchema) dto: AssignPricePlanDto,
  ) {
    await this.service.assignToStation(stationId, dto);
  }
}
