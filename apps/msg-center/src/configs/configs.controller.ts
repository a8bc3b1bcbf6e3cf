import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
import { ConfigBody, configBodySchema, ConfigQuery, configQuerySchema } from './config.dto';
import { ConfigsService } from './configs.service';
import { deletedResponseSchema, msgConfigPageSchema, msgConfigSchema } from '../openapi/msg-schemas';
import { z } from 'zod';

@ApiTags('msg: config')
@RequirePermissions(MsgPermissions.Config)
@Controller('ms/m1/msg/config')
export class ConfigsController {
  constructor(private readonly configs: ConfigsService) {}

  @ApiDoc({
    summary: 'Configurations matching the filters',
    response: z.array(msgConfigSchema),
  })
  @Get('search')
  search(@ZodQuery(configQuerySchema) query: ConfigQuery) {
    return this.configs.list(query);
  }

  /** All configurations (the template dialog's list). Readable with the template permission too. */
  @ApiDoc({ summary: 'All configurations', response: z.array(msgConfigSchema) })
  @RequirePermissions(MsgPermissions.Template)
  @Get()
  all() {
    return this.configs.list({});
  }

  @ApiDoc({
    summary: 'A page of configurations',
    response: msgConfigPageSchema,
  })
  @Get('page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(configQuerySchema) query: ConfigQuery) {
    return this.configs.page(query, page);
  }

  @ApiDoc({
    summary: 'Add a configuration',
    response: idResponseSchema,
    errors: [409],
  })
  @RequirePermissions('msg:config:add')
  @Post()
  create(@ZodBody(configBodySchema) body: ConfigBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.configs.create(body, me.username);
  }

  @ApiDoc({
    summary: 'Modify a configuration (a masked credential sent back keeps the stored one)',
    response: idResponseSchema,
    errors: [404, 409],
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

  @ApiDoc({
    summary: 'Delete a configuration (409 while templates use it)',
    response: deletedResponseSchema,
    errors: [404, 409],
  })
  @RequirePermissions('msg:config:delete')
  @Delete(':id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.configs.delete(id);
  }
}
