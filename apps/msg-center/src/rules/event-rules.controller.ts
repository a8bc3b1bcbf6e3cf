import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MsgApi } from '../openapi/msg-api.decorator';
import { deletedResponseSchema, idResponseSchema, msgEventRulePageSchema } from '../openapi/msg-schemas';
import {
  AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { JSON_CONTENT_TYPE } from '../shared/grid';
import { MsgPermissions } from '@voltdepot/shared-contracts';
import { IdParam, idParamSchema, PageParams, pageParamsSchema } from '../shared/grid';
import { EventRuleBody, eventRuleBodySchema, EventRuleQuery, eventRuleQuerySchema } from './event-rule.dto';
import { EventRulesService } from './event-rules.service';

/** Event rules: which bus events become messages (grid of the spec; add/edit/delete added for the screen). */
@ApiTags('msg: event')
@RequirePermissions(MsgPermissions.Event)
@Controller('ms/m1/msg/event')
export class EventRulesController {
  constructor(private readonly rules: EventRulesService) {}

  @MsgApi({
    summary: 'A page of event rules',
    params: pageParamsSchema,
    response: msgEventRulePageSchema,
    errors: [400],
  })
  @Get('page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(eventRuleQuerySchema) query: EventRuleQuery) {
    return this.rules.page(query, page);
  }

  @MsgApi({
    summary: 'Add an event rule',
    response: idResponseSchema,
    status: 201,
    errors: [400, 404],
  })
  @RequirePermissions('msg:event:add')
  @Post()
  create(@ZodBody(eventRuleBodySchema) body: EventRuleBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.rules.create(body, me.username);
  }

  @MsgApi({
    summary: 'Modify an event rule',
    params: idParamSchema,
    response: idResponseSchema,
    errors: [400, 404],
  })
  @RequirePermissions('msg:event:edit')
  @Put(':id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(eventRuleBodySchema) body: EventRuleBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.rules.update(id, body, me.username);
  }

  @MsgApi({
    summary: 'Delete an event rule',
    params: idParamSchema,
    response: deletedResponseSchema,
    errors: [400, 404],
  })
  @RequirePermissions('msg:event:delete')
  @Delete(':id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.rules.delete(id);
  }
}
