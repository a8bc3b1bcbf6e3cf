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
import { ConfigBody, configBodySchema, ConfigQuery, configQuerySchema } from './config.dto';
import { ConfigsService } from './configs.service';

@RequirePermissions(MsgPermissions.Config)
@Controller('ms/m1/msg/config')
export class ConfigsController {
  constructor(private readonly configs: ConfigsService) {}

  @Get('search')
  search(@ZodQuery(configQuerySchema) query: ConfigQuery) {
    return this.configs.list(query);
  }

  /** All configurations (the template dialog's list). Readable with the template permission too. */
  @RequirePermissions(MsgPermissions.Template)
  @Get()
  all() {
    return this.configs.list({});
  }

  @Get('page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(configQuerySchema) query: ConfigQuery) {
    return this.configs.page(query, page);
  }

  @Post()
  create(@ZodBody(configBodySchema) body: ConfigBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.configs.create(body, me.username);
  }

  @Put(':id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(configBodySchema) body: ConfigBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.configs.update(id, body, me.username);
  }

  @Delete(':id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.configs.delete(id);
  }
}
