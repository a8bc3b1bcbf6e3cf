import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiDoc, type AuthPrincipal, CurrentPrincipal, RequirePermissions } from '@voltdepot/server-core';
import { HOME_PERMISSION } from '@voltdepot/shared-contracts';
import { todayOverviewSchema, type TodayOverview } from './overview.dto';
import { OverviewService } from './overview.service';

/** The home page's figures: what the operator's depots are doing today, within the caller's data scope. */
@ApiTags('home: overview')
@ApiBearerAuth()
@Controller('api/overview')
export class OverviewController {
  constructor(@Inject(OverviewService) private readonly overview: OverviewService) {}

  @ApiDoc({
    summary:
      "Today's figures: stations, piles and guns online, guns charging, open faults, and the energy and amount of the orders stopped in the business day",
    response: todayOverviewSchema,
  })
  @Get('today')
  @RequirePermissions(HOME_PERMISSION)
  today(@CurrentPrincipal() me: AuthPrincipal): Promise<TodayOverview> {
    return this.overview.today(me.userId);
  }
}
