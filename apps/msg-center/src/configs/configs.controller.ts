import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
import { MsgApi } from '../openapi/msg-api.decorator';
import {
  deletedResponseSchema,
  idResponseSchema,
  msgConfigPageSchema,
  msgConfigSchema,
} from '../openapi/msg-schemas';
import { z } from 'zod';

@ApiTags('msg: config')
@RequirePermissions(MsgPermissions.Config)
@Controller('ms/m1/msg/config')
export class ConfigsController {
  constructor(private readonly configs: ConfigsService) {}

  @MsgApi({
    summary: 'Configurations matching the filters',
    response: z.array(msgConfigSchema),
  })
  @Get('search')
  search(@ZodQuery(configQuerySchema) query: ConfigQuery) {
    return this.configs.list(query);
  }

  /** All configurations (the template dialog's list). Readable with the template permission too. */
  @MsgApi({ summary: 'All configurations', response: z.array(msgConfigSchema) })
  @RequirePermissions(MsgPermissions.Template)
  @Get()
  all() {
    return this.configs.list({});
  }

  @MsgApi({
    summary: 'A page of configurations',
    params: pageParamsSchema,
    response: msgConfigPageSchema,
    errors: [400],
  })
  @Get('page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(configQuerySchema) query: ConfigQuery) {
    return this.configs.page(query, page);
  }

  @MsgApi({
    summary: 'Add a configuration',
    response: idResponseSchema,
    status: 201,
    errors: [400, 409],
  })
  @RequirePermissions('msg:config:add')
  @Post()
  create(@ZodBody(configBodySchema) body: ConfigBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.configs.create(body, me.username);
  }

  @MsgApi({
    summary: 'Modify a configuration (a masked credential sent back keeps the stored one)',
    params: idParamSchema,
    response: idResponseSchema,
    errors: [400, 404, 409],
  })
  @RequirePermissions('msg:config:edit')
  @Put(':id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(configBodySchema) body: ConfigBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.configs.update(id, body, me.username);
  }

  @MsgApi({
    summary: 'Delete a configuration (409 while templates use it)',
    params: idParamSchema,
    response: deletedResponseSchema,
    errors: [400, 404, 409],
  })
  @RequirePermissions('msg:config:delete')
  @Delete(':id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.configs.delete(id);
  }
}
