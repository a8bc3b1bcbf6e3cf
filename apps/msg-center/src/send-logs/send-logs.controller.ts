import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { sendLogPageSchema } from '../openapi/msg-schemas';
import { ApiDoc, RequirePermissions, SERVICE_CONFIG, ZodParams, ZodQuery } from '@voltdepot/server-core';
import { GridPage, MsgPermissions, SendLogDto } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { PageParams, pageParamsSchema, withBusinessTimes } from '../shared/grid';
import { SendLogQuery, sendLogQuerySchema, SendLogRepository } from './send-log.repository';

/** What was sent to whom, and the provider's error for what failed. */
@ApiTags('msg: send log')
@RequirePermissions(MsgPermissions.Event)
@Controller('ms/m1/msg/send_log')
export class SendLogsController {
  constructor(
    private readonly logs: SendLogRepository,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
  ) {}

  @ApiDoc({
    summary: 'A page of the send log (what was sent to whom; the provider error of what failed)',
    response: sendLogPageSchema,
  })
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
