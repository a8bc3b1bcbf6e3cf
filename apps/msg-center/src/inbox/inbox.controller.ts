import { Controller, Header, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  deletedResponseSchema,
  inboxMessageSchema,
  inboxPageSchema,
  updatedResponseSchema,
} from '../openapi/msg-schemas';
import {
  ApiDoc,
  Authenticated,
  AuthPrincipal,
  CurrentPrincipal,
  ValidationException,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { Inject } from '@nestjs/common';
import { SERVICE_CONFIG } from '@voltdepot/server-core';
import { GridPage, InboxMessageDto } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { MsgCenterConfig } from '../app.config';
import { parseBusinessTime } from '../shared/business-time';
import { JSON_CONTENT_TYPE, PageParams, pageParamsSchema } from '../shared/grid';
import { inboxIdsSchema, inboxPageQuerySchema } from './inbox.dto';
import { InboxService } from './inbox.service';

/** Every signed-in user has an inbox and sees only their own messages. */
@ApiTags('msg: inbox')
@Authenticated()
@Controller('ms/m1/msg/inbox')
export class InboxController {
  constructor(
    private readonly inbox: InboxService,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
  ) {}

  @ApiDoc({
    summary: "A page of the caller's messages sent between start and end, newest first",
    response: inboxPageSchema,
  })
  @Get('page/:page/size/:size')
  page(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pageParamsSchema) { page, size }: PageParams,
    @ZodQuery(inboxPageQuerySchema) query: z.infer<typeof inboxPageQuerySchema>,
  ): Promise<GridPage<InboxMessageDto>> {
    const range = { start: this.time('start', query.start), end: this.time('end', query.end) };
    return this.inbox.page(me.userId, range, page, size);
  }

  @ApiDoc({
    summary: 'Mark messages read',
    response: updatedResponseSchema,
  })
  @Post('read')
  @HttpCode(200)
  async read(@CurrentPrincipal() me: AuthPrincipal, @ZodBody(inboxIdsSchema) ids: number[]) {
    return { updated: await this.inbox.markRead(me.userId, ids) };
  }

  /** Mark all read (the inbox dialog's button when no row is ticked). */
  @ApiDoc({ summary: "Mark all the caller's messages read", response: updatedResponseSchema })
  @Post('read/all')
  @HttpCode(200)
  async readAll(@CurrentPrincipal() me: AuthPrincipal) {
    return { updated: await this.inbox.markRead(me.userId, 'all') };
  }

  /** `true` when at least one of the caller's messages was deleted. */
  @ApiDoc({
    summary: "Delete messages (true when at least one of the caller's was deleted)",
    response: deletedResponseSchema,
  })
  @Post('del')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  @HttpCode(200)
  async del(@CurrentPrincipal() me: AuthPrincipal, @ZodBody(inboxIdsSchema) ids: number[]): Promise<boolean> {
    return (await this.inbox.delete(me.userId, ids)) > 0;
  }

  /** The caller's unread messages; also pushed to the caller's STOMP sessions. */
  @ApiDoc({
    summary: "The caller's unread messages; also pushed to the caller's STOMP sessions",
    response: z.array(inboxMessageSchema),
  })
  @Get('unread')
  unread(@CurrentPrincipal() me: AuthPrincipal): Promise<InboxMessageDto[]> {
    return this.inbox.unread(me.userId);
  }

  private time(field: string, text: string | undefined): Date | undefined {
    if (text === undefined || text === '') return undefined;
    const parsed = parseBusinessTime(text, this.config.BUSINESS_TIME_ZONE);
    if (parsed === undefined) {
      throw new ValidationException([{ field, message: 'expected yyyy-MM-dd HH:mm:ss' }]);
    }
    return parsed;
  }
}
