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
import type { z } from 'zod';
import { IdParam, idParamSchema, PageParams, pageParamsSchema } from '../shared/grid';
import { AlertBody, alertBodySchema, AlertQuery, alertQuerySchema, prometheusQuerySchema } from './alert.dto';
import { AlertsService } from './alerts.service';

@RequirePermissions(MsgPermissions.Alerts)
@Controller('ms/m1/msg')
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Get('alerts/page/:page/size/:size')
  page(@ZodParams(pageParamsSchema) page: PageParams, @ZodQuery(alertQuerySchema) query: AlertQuery) {
    return this.alerts.page(query, page);
  }

  @Post('alerts')
  create(@ZodBody(alertBodySchema) body: AlertBody, @CurrentPrincipal() me: AuthPrincipal) {
    return this.alerts.create(body, me.username);
  }

  @Put('alerts/:id')
  update(
    @ZodParams(idParamSchema) { id }: IdParam,
    @ZodBody(alertBodySchema) body: AlertBody,
    @CurrentPrincipal() me: AuthPrincipal,
  ) {
    return this.alerts.update(id, body, me.username);
  }

  @Delete('alerts/:id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  delete(@ZodParams(idParamSchema) { id }: IdParam) {
    return this.alerts.delete(id);
  }

  @Get('prometheus/targets')
  targets(@ZodQuery(prometheusQuerySchema) query: z.infer<typeof prometheusQuerySchema>) {
    return this.alerts.prometheusTargets(query.job);
  }
}
