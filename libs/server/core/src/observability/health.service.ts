import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { HealthReport } from '@voltdepot/shared-contracts';
import { buildHealthReport, HealthCheck } from './health-check';
import { OBSERVABILITY_OPTIONS, ObservabilityOptions } from './observability.options';

@Injectable()
export class HealthService implements OnApplicationShutdown {
  private readonly checks: readonly HealthCheck[];

  constructor(@Inject(OBSERVABILITY_OPTIONS) private readonly options: ObservabilityOptions) {
    this.checks = options.checks ?? [];
  }

  report(): Promise<HealthReport> {
    return buildHealthReport(this.checks, {
      service: this.options.service,
      version: this.options.version ?? '0.0.0',
      defaultTimeoutMs: this.options.defaultTimeoutMs,
    });
  }

  /** Closes connections that checks own (see `postgresUrlCheck`, `redisUrlCheck`). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.checks.map((c) => c.close?.()));
  }
}
