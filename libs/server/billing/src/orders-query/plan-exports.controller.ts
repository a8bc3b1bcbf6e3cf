import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  CONTENT_TYPES,
  type HttpResponse,
  RequirePermissions,
  ZodQuery,
} from '@voltdepot/server-core';
import { sendXlsx } from '@voltdepot/server-spreadsheet';
import type { DiscountPlanView } from '../discount-plans/dto/discount-plan.dto';
import type { PricePlanView } from '../price-plans/dto/price-plan.dto';
import { DiscountPlansService } from '../discount-plans/discount-plans.service';
import { allPages } from '../shared/all-pages';
import { PricePlansService } from '../price-plans/price-plans.service';
import { DISCOUNT_PLAN_COLUMNS, PRICE_PLAN_COLUMNS, stageRows } from './billing-exports';
import { exportLanguageSchema, type ExportLanguage } from '../shared/query-params';

export const PLAN_EXPORT_PERMISSIONS = {
  pricePlan: 'price_plan:export',
  discountPlan: 'discount_plan:export',
} as const;

const BATCH = 500;

/**
 * The price plan and discount plan lists as .xlsx. Two path segments after the area so that the
 * plans' own `/:id` routes never take them.
 */
@ApiTags('billing: plan exports')
@ApiBearerAuth()
@Controller('api')
export class PlanExportsController {
  constructor(
    @Inject(PricePlansService) private readonly pricePlans: PricePlansService,
    @Inject(DiscountPlansService) private readonly discountPlans: DiscountPlansService,
  ) {}

  /** One row per stage of every plan. */
  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('pricePlan/export/xlsx')
  @RequirePermissions(PLAN_EXPORT_PERMISSIONS.pricePlan)
  async exportPricePlans(
    @ZodQuery(exportLanguageSchema) q: { lang: ExportLanguage },
    @Res() res: HttpResponse,
  ): Promise<void> {
    const pricePlans = this.pricePlans;
    async function* rows() {
      for await (const plans of allPages(async (p, s) => (await pricePlans.page(p, s)).list, BATCH))
        yield stageRows(plans as PricePlanView[]);
    }
    await sendXlsx(
      res,
      q.lang === 'zh-CN' ? '电价方案.xlsx' : 'price-plans.xlsx',
      'price-plans',
      PRICE_PLAN_COLUMNS,
      rows(),
      q.lang,
    );
  }

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('discountPlan/export/xlsx')
  @RequirePermissions(PLAN_EXPORT_PERMISSIONS.discountPlan)
  async exportDiscountPlans(
    @ZodQuery(exportLanguageSchema) q: { lang: ExportLanguage },
    @Res() res: HttpResponse,
  ): Promise<void> {
    await sendXlsx(
      res,
      q.lang === 'zh-CN' ? '优惠方案.xlsx' : 'discount-plans.xlsx',
      'discount-plans',
      DISCOUNT_PLAN_COLUMNS,
      allPages(async (p, s) => (await this.discountPlans.page(p, s)).list, BATCH) as AsyncIterable<
        DiscountPlanView[]
      >,
      q.lang,
    );
  }
}
