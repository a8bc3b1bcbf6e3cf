import { Controller, Get, Inject, Optional, Req, Res } from '@nestjs/common';
import { AuthErrorCodes, CommonErrorCodes } from '@voltdepot/shared-contracts';
import { AuthException } from '../auth/auth.exception';
import { Public } from '../auth/public.decorator';
import { SERVICE_CONFIG } from '../config/config.module';
import { DomainException } from '../errors/domain.exception';
import { ApiDoc, CONTENT_TYPES } from '../http/api-doc.decorator';
import type { HttpRequest, HttpResponse } from '../http/express-types';
import { ServiceMetrics } from './http-metrics';
import { metricsDecision, type MetricsAccessConfig } from './metrics-access';

/** No user session guards it (a scraper has none): the METRICS_TOKEN check below does (metrics-access.ts). */
@Public()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: ServiceMetrics,
    @Optional() @Inject(SERVICE_CONFIG) private readonly config: MetricsAccessConfig = {},
  ) {}

  /** Prometheus text exposition format. */
  @ApiDoc({
    summary: 'Prometheus metrics (text exposition format; Bearer METRICS_TOKEN when one is set)',
    produces: [CONTENT_TYPES.prometheusText],
    errors: [404],
  })
  @Get('metrics')
  async get(@Req() req: HttpRequest, @Res() res: HttpResponse): Promise<void> {
    switch (metricsDecision(this.config, req.headers.authorization)) {
      case 'token-missing':
        throw new AuthException(AuthErrorCodes.TokenMissing, 'Metrics need the bearer token METRICS_TOKEN');
      case 'token-wrong':
        throw new AuthException(AuthErrorCodes.TokenInvalid, 'Wrong metrics token');
      case 'closed':
        throw new DomainException(
          CommonErrorCodes.NotFound,
          'Metrics are not served: set METRICS_TOKEN (or METRICS_PUBLIC=true) to scrape them',
          404,
        );
      case 'serve':
        break;
    }
    const { contentType, body } = await this.metrics.render();
    res.statusCode = 200;
    res.setHeader('content-type', contentType);
    res.setHeader('cache-control', 'no-store');
    res.end(body);
  }
}
