import { Controller, Get, Inject } from '@nestjs/common';
import { RequirePermissions, SERVICE_CONFIG, ZodParams, ZodQuery } from '@voltdepot/server-core';
import { GridPage, MsgPermissions, SendLogDto } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { PageParams, pageParamsSchema, withBusinessTimes } from '../shared/grid';
import { SendLogQuery, sendLogQuerySchema, SendLogRepository } from './send-log.repository';

/** What was sent to whom, and the provider's error for what failed. */
@RequirePermissions(MsgPermissions.Event)
@Controller('ms/m1/msg/send_log')
export class SendLogsController {
  constructor(
    private readonly logs: SendLogRepository,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
  ) {}

  @Get('page/:page/size/:size')
  async page(
    @ZodParams(pageParamsSchema) page: PageParams,
    @ZodQuery(sendLogQuerySchema) query: SendLogQuery,
  ): Promise<GridPage<SendLogDto>> {
    const result = await this.logs.page(query, page);
    return {
      list: result.list.map((r) => withBusinessTimes(r, this.config.BUSINESS_TIME_ZONE)),
      total: result.total,
    };
  }
}
