import { Controller, Get, Inject } from '@nestjs/common';
import { ApiDoc, RequirePermissions, ZodParams, ZodQuery } from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import {
  MESSAGE_LOG_QUERY_PERMISSION,
  messageLogPageParamsSchema,
  messageLogPageSchema,
  messageLogQuerySchema,
  type MessageLogFrameDto,
  type MessageLogPageParams,
  type MessageLogQuery,
} from './dto/message-log.dto';
import { MessageLogRepository } from './message-log.repository';

/** Every OCPP frame in and out of a pile, for support and the interface-test tool. */
@RequirePermissions(MESSAGE_LOG_QUERY_PERMISSION)
@Controller('api/pile/:chargePointId')
export class MessageLogController {
  constructor(@Inject(MessageLogRepository) private readonly log: MessageLogRepository) {}

  /**
   * Frames of the pile, newest first, filtered by time range (default the last hour, at most 7 days),
   * direction, action and message id. 400 names every bad field.
   */
  @ApiDoc({ summary: "The pile's OCPP frames, newest first", response: messageLogPageSchema })
  @Get('messages/page/:page/size/:size')
  async page(
    @ZodParams(messageLogPageParamsSchema) { chargePointId, page, size }: MessageLogPageParams,
    @ZodQuery(messageLogQuerySchema) query: MessageLogQuery,
  ): Promise<GridPage<MessageLogFrameDto>> {
    return this.log.page(chargePointId, query, page, size);
  }
}
