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
import { TemplateBody, templateBodySchema, TemplateQuery, templateQuerySchema } from './template.dto';
import { TemplatesService } from './templates.service';

@RequirePermissions(MsgPermissions.Template)
@Controller('ms/m1/msg/template')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get('page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(templateQuerySchema) query: TemplateQuery) {
    return this.templates.page(query, page);
  }

  /** The templates of one configuration. */
  @Get('group/:id')
  byConfig(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.templates.byConfig(id);
  }

  /** Answers `{ id }` of the new template. */
  @Post()
  create(@ZodBody(templateBodySchema) body: TemplateBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.templates.create(body, me.username);
  }

  @Put(':id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(templateBodySchema) body: TemplateBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.templates.update(id, body, me.username);
  }

  /** 409 when the template is not editable. */
  @Delete(':id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.templates.delete(id);
  }
}
