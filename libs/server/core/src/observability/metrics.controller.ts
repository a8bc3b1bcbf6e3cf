import { Controller, Get, Res } from '@nestjs/common';
import { Public } from '../auth/public.decorator';
import { ApiDoc, CONTENT_TYPES } from '../http/api-doc.decorator';
import type { HttpResponse } from '../http/express-types';
import { ServiceMetrics } from './http-metrics';

@Public()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: ServiceMetrics) {}

  /** Prometheus text exposition format. */
  @ApiDoc({
    summary: 'Prometheus metrics (text exposition format)',
    produces: [CONTENT_TYPES.prometheusText],
  })
  @Get('metrics')
  async get(@Res() res: HttpResponse): Promise<void> {
    const { contentType, body } = await this.metrics.render();
    res.statusCode = 200;
    res.setHeader('content-type', contentType);
    res.setHeader('cache-control', 'no-store');
    res.end(body);
  }
}
