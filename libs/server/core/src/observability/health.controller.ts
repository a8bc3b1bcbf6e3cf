import { Controller, Get, Header, Res } from '@nestjs/common';
import type { HealthReport } from '@voltdepot/shared-contracts';
import { Public } from '../auth/public.decorator';
import { ApiDoc } from '../http/api-doc.decorator';
import { healthReportSchema } from '../http/api-schemas';
import type { HttpResponse } from '../http/express-types';
import { healthHttpStatus } from './health-check';
import { HealthService } from './health.service';

@Public()
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** 200 when every critical dependency is up, 503 otherwise; the body says which one failed. */
  @ApiDoc({
    summary: 'Health: 200 when every critical dependency is up, 503 (same body) otherwise',
    response: healthReportSchema,
  })
  @Get('health')
  @Header('cache-control', 'no-store')
  async get(@Res({ passthrough: true }) res: HttpResponse): Promise<HealthReport> {
    const report = await this.health.report();
    res.statusCode = healthHttpStatus(report);
    return report;
  }
}
