import { Controller, Header, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { deletedResponseSchema, msgAlertPageSchema } from '../openapi/msg-schemas';
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
import { AlertBody, alertBodySchema, AlertQuery, alertQuerySchema } from './alert.dto';
import { AlertsService } from './alerts.service';

@ApiTags('msg: alerts')
@RequirePermissions(MsgPermissions.Alerts)
@Controller('ms/m1/msg')
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @ApiDoc({
    summary: 'A page of alerts with the value and status of their last check',
    response: msgAlertPageSchema,
  })
  @Get('alerts/page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(alertQuerySchema) query: AlertQuery) {
    return this.alerts.page(query, page);
  }

  @ApiDoc({
    summary: 'Add an alert',
    response: idResponseSchema,
    errors: [404],
  })
  @RequirePermissions('msg:alerts:add')
  @Post('alerts')
  create(@ZodBody(alertBodySchema) body: AlertBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.alerts.create(body, me.username);
  }

  @ApiDoc({
    summary: 'Modify an alert',
    response: idResponseSchema,
    errors: [404],
  })
  @RequirePermissions('msg:alerts:edit')
  @Put('alerts/:id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(alertBodySchema) body: AlertBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.alerts.update(id, body, me.username);
  }

  @ApiDoc({
    summary: 'Delete an alert',
    response: deletedResponseSchema,
    errors: [404],
  })
  @RequirePermissions('msg:alerts:delete')
  @Delete('alerts/:id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.alerts.delete(id);
  }
}
