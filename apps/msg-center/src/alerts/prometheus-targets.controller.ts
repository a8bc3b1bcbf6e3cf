import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { prometheusTargetGroupSchema } from '../openapi/msg-schemas';
import { ApiDoc, RequirePermissions, ZodQuery } from '@voltdepot/server-core';
import { MsgPermissions, PrometheusTargetGroup } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { prometheusQuerySchema } from './alert.dto';
import { AlertsService } from './alerts.service';

/**
 * `GET /prometheus/targets` (param job) of the spec's message service table. Its leading slash puts it
 * at the service root like `/m1/msg/group/search`: /ms/prometheus/targets; also answered under the
 * message service base, /ms/m1/msg/prometheus/targets. Prometheus HTTP SD format.
 */
@ApiTags('msg: alerts')
@RequirePermissions(MsgPermissions.Alerts)
@Controller()
export class PrometheusTargetsController {
  constructor(private readonly alerts: AlertsService) {}

  @ApiDoc({
    summary: 'Prometheus HTTP SD target groups of a job (a job type such as NODE, or a Prometheus job)',
    response: z.array(prometheusTargetGroupSchema),
  })
  @Get(['ms/prometheus/targets', 'ms/m1/msg/prometheus/targets'])
  targets(
    @ZodQuery(prometheusQuerySchema) query: z.infer<typeof prometheusQuerySchema>,
  ): Promise<PrometheusTargetGroup[]> {
    return this.alerts.prometheusTargets(query.job);
  }
}
