import { Controller, Delete, Get, HttpCode, Inject, Post, Put } from '@nestjs/common';
import { ApiDoc, idResponseSchema, RequirePermissions, ZodBody, ZodParams } from '@voltdepot/server-core';
import {
  gridPageParamsSchema,
  serialIdParamsSchema,
  type GridPageParams,
  type IdParams,
} from '../shared/query-params';
import {
  discountPlanPageSchema,
  discountPlanViewSchema,
  type SaveDiscountPlanDto,
  saveDiscountPlanSchema,
} from './dto/discount-plan.dto';
import { DiscountPlansService } from './discount-plans.service';

export const DISCOUNT_PLAN_PERMISSIONS = { view: 'discount_plan:view', edit: 'discount_plan:edit' } as const;

@Controller('api/discountPlan')
export class DiscountPlansController {
  constructor(@Inject(DiscountPlansService) private readonly service: DiscountPlansService) {}

  @ApiDoc({ response: discountPlanPageSchema })
  @Get('page/:page/size/:size')
  @RequirePermissions(DISCOUNT_PLAN_PERMISSIONS.view)
  page(@ZodParams(gridPageParamsSchema) params: GridPageParams) {
    return this.service.page(params.page, params.size);
  }

  @ApiDoc({ response: discountPlanViewSchema, errors: [404] })
  @Get(':id')
  @RequirePermissions(DISCOUNT_PLAN_PERMISSIONS.view)
  get(@ZodParams(serialIdParamsSchema) { id }: IdParams) {
    return this.service.get(id);
  }

  @ApiDoc({ summary: 'Add a plan; answers its id', response: idResponseSchema, errors: [409, 422] })
  @Post()
  @RequirePermissions(DISCOUNT_PLAN_PERMISSIONS.edit)
  create(@ZodBody(saveDiscountPlanSchema) dto: SaveDiscountPlanDto) {
    return this.service.create(dto);
  }

  @ApiDoc({ summary: 'Modify a plan; answers its id', response: idResponseSchema, errors: [404, 409, 422] })
  @Put(':id')
  @RequirePermissions(DISCOUNT_PLAN_PERMISSIONS.edit)
  update(
    @ZodParams(serialIdParamsSchema) { id }: IdParams,
    @ZodBody(saveDiscountPlanSchema) dto: SaveDiscountPlanDto,
  ) {
    return this.service.update(id, dto);
  }

  @ApiDoc({ errors: [404] })
  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions(DISCOUNT_PLAN_PERMISSIONS.edit)
  async remove(@ZodParams(serialIdParamsSchema) { id }: IdParams) {
    await this.service.remove(id);
  }
}
