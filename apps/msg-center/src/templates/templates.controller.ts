import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { deletedResponseSchema, msgTemplatePageSchema, msgTemplateSchema } from '../openapi/msg-schemas';
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
import { TemplateBody, templateBodySchema, TemplateQuery, templateQuerySchema } from './template.dto';
import { TemplatesService } from './templates.service';

@ApiTags('msg: template')
@RequirePermissions(MsgPermissions.Template)
@Controller('ms/m1/msg/template')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @ApiDoc({
    summary: 'A page of templates',
    response: msgTemplatePageSchema,
  })
  @Get('page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(templateQuerySchema) query: TemplateQuery) {
    return this.templates.page(query, page);
  }

  /** The templates of one configuration. */
  @ApiDoc({
    summary: 'The templates of one configuration',
    response: z.array(msgTemplateSchema),
  })
  @Get('group/:id')
  byConfig(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.templates.byConfig(id);
  }

  /** Answers `{ id }` of the new template. */
  @ApiDoc({
    summary: 'Add a template',
    response: idResponseSchema,
    errors: [404],
  })
  @RequirePermissions('msg:template:add')
  @Post()
  create(@ZodBody(templateBodySchema) body: TemplateBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.templates.create(body, me.username);
  }

  @ApiDoc({
    summary: 'Modify a template',
    response: idResponseSchema,
    errors: [404],
  })
  @RequirePermissions('msg:template:edit')
  @Put(':id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(templateBodySchema) body: TemplateBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.templates.update(id, body, me.username);
  }

  /** 409 when the template is not editable. */
  @ApiDoc({
    summary: 'Delete a template (409 when not editable or in use)',
    response: deletedResponseSchema,
    errors: [404, 409],
  })
  @RequirePermissions('msg:template:delete')
  @Delete(':id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.templates.delete(id);
  }
}
