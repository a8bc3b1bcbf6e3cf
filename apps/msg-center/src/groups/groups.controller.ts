import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  deletedResponseSchema,
  msgGroupPageSchema,
  msgGroupSchema,
  receiverOptionSchema,
} from '../openapi/msg-schemas';
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
import { GroupBody, groupBodySchema, GroupQuery, groupQuerySchema } from './group.dto';
import { GroupsService } from './groups.service';

@ApiTags('msg: group')
@RequirePermissions(MsgPermissions.Group)
@Controller('ms/m1/msg')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @ApiDoc({
    summary: 'A page of receiver groups (all groups: page 1, size 100)',
    response: msgGroupPageSchema,
  })
  @Get('group/page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(groupQuerySchema) query: GroupQuery) {
    return this.groups.page(query, page);
  }

  @ApiDoc({
    summary: 'Receiver groups matching the filters',
    response: z.array(msgGroupSchema),
  })
  @Get('group/search')
  search(@ZodQuery(groupQuerySchema) query: GroupQuery) {
    return this.groups.list(query);
  }

  @ApiDoc({
    summary: 'Add a receiver group',
    response: idResponseSchema,
    errors: [409],
  })
  @RequirePermissions('msg:group:add')
  @Post('group')
  create(@ZodBody(groupBodySchema) body: GroupBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.groups.create(body, me.username);
  }

  @ApiDoc({
    summary: 'Modify a receiver group',
    response: idResponseSchema,
    errors: [404, 409],
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

  @ApiDoc({
    summary: 'Delete a receiver group (409 while rules use it)',
    response: deletedResponseSchema,
    errors: [404, 409],
  })
  @RequirePermissions('msg:group:delete')
  @Delete('group/:id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.groups.delete(id);
  }

  @ApiDoc({ summary: 'Roles a group can address', response: z.array(receiverOptionSchema) })
  @Get('receiver/role')
  roles() {
    return this.groups.roles();
  }

  @ApiDoc({ summary: 'Enabled users a group can address', response: z.array(receiverOptionSchema) })
  @Get('receiver/user')
  users() {
    return this.groups.users();
  }
}
