import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { MsgApi } from '../openapi/msg-api.decorator';
import {
  deletedResponseSchema,
  idResponseSchema,
  msgGroupPageSchema,
  msgGroupSchema,
  receiverOptionSchema,
} from '../openapi/msg-schemas';
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
import { GroupBody, groupBodySchema, GroupQuery, groupQuerySchema } from './group.dto';
import { GroupsService } from './groups.service';

@ApiTags('msg: group')
@RequirePermissions(MsgPermissions.Group)
@Controller('ms/m1/msg')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @MsgApi({
    summary: 'A page of receiver groups (all groups: page 1, size 100)',
    params: pageParamsSchema,
    response: msgGroupPageSchema,
    errors: [400],
  })
  @Get('group/page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(groupQuerySchema) query: GroupQuery) {
    return this.groups.page(query, page);
  }

  @MsgApi({
    summary: 'Receiver groups matching the filters',
    response: z.array(msgGroupSchema),
  })
  @Get('group/search')
  search(@ZodQuery(groupQuerySchema) query: GroupQuery) {
    return this.groups.list(query);
  }

  @MsgApi({
    summary: 'Add a receiver group',
    response: idResponseSchema,
    status: 201,
    errors: [400, 409],
  })
  @RequirePermissions('msg:group:add')
  @Post('group')
  create(@ZodBody(groupBodySchema) body: GroupBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.groups.create(body, me.username);
  }

  @MsgApi({
    summary: 'Modify a receiver group',
    params: idParamSchema,
    response: idResponseSchema,
    errors: [400, 404, 409],
  })
  @RequirePermissions('msg:group:edit')
  @Put('group/:id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(groupBodySchema) body: GroupBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.groups.update(id, body, me.username);
  }

  @MsgApi({
    summary: 'Delete a receiver group (409 while rules use it)',
    params: idParamSchema,
    response: deletedResponseSchema,
    errors: [400, 404, 409],
  })
  @RequirePermissions('msg:group:delete')
  @Delete('group/:id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.groups.delete(id);
  }

  @MsgApi({ summary: 'Roles a group can address', response: z.array(receiverOptionSchema) })
  @Get('receiver/role')
  roles() {
    return this.groups.roles();
  }

  @MsgApi({ summary: 'Enabled users a group can address', response: z.array(receiverOptionSchema) })
  @Get('receiver/user')
  users() {
    return this.groups.users();
  }
}
