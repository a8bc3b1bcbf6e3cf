import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
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

@RequirePermissions(MsgPermissions.Group)
@Controller('ms/m1/msg')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get('group/page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(groupQuerySchema) query: GroupQuery) {
    return this.groups.page(query, page);
  }

  @Get('group/search')
  search(@ZodQuery(groupQuerySchema) query: GroupQuery) {
    return this.groups.list(query);
  }

  @Post('group')
  create(@ZodBody(groupBodySchema) body: GroupBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.groups.create(body, me.username);
  }

  @Put('group/:id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(groupBodySchema) body: GroupBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.groups.update(id, body, me.username);
  }

  @Delete('group/:id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.groups.delete(id);
  }

  @Get('receiver/role')
  roles() {
    return this.groups.roles();
  }

  @Get('receiver/user')
  users() {
    return this.groups.users();
  }
}
