import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { deletedResponseSchema, msgEventRulePageSchema } from '../openapi/msg-schemas';
import {
  ApiDoc,
  idResponseSchema,
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

  @ApiDoc({
    summary: 'A page of event rules',
    response: msgEventRulePageSchema,
  })
  @Get('page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(eventRuleQuerySchema) query: EventRuleQuery) {
    return this.rules.page(query, page);
  }

  @ApiDoc({
    summary: 'Add an event rule',
    response: idResponseSchema,
    errors: [404],
  })
  @RequirePermissions('msg:event:add')
  @Post()
  create(@ZodBody(eventRuleBodySchema) body: EventRuleBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.rules.create(body, me.username);
  }

  @ApiDoc({
    summary: 'Modify an event rule',
    response: idResponseSchema,
    errors: [404],
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

  @ApiDoc({
    summary: 'Delete an event rule',
    response: deletedResponseSchema,
    errors: [404],
  })
  @RequirePermissions('msg:event:delete')
  @Delete(':id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.rules.delete(id);
  }
}
