import { DynamicModule, Module } from '@nestjs/common';
import { AssetsWorkerModule } from '@voltdepot/server-assets';
import { BillingWorkerModule } from '@voltdepot/server-billing';
import { JobsModule } from '@voltdepot/server-jobs';
import { LedgerWorkerModule } from '@voltdepot/server-ledger';
import { MonitoringWorkerModule } from '@voltdepot/server-monitoring';
import type { ApiConfig } from './app.config';
import { coreImports, monitoringOptions } from './app.module';

/** The worker's name in logs, metrics and PostgreSQL's application_name. */
export const workerServiceName = (config: Pick<ApiConfig, 'SERVICE_NAME'>) => `${config.SERVICE_NAME}-worker`;

/**
 * The worker process (worker.main.ts): the api's bus consumers, sweeps and scheduled jobs, with the same
 * configuration, database, bus and outbox relay as the HTTP process and no route but /health and
 * /metrics. Every part is safe to run in several replicas: consumers share their groups' partitions,
 * a scheduled job runs once per slot whichever replica takes it.
 */
@Module({})
export class WorkerModule {
  static register(config: ApiConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ...coreImports(config, workerServiceName(config)),
        JobsModule.forRoot({ redisUrl: config.REDIS_URL, prefix: config.API_QUEUE_PREFIX }),
        // Settlement of sessions and occupation, and the lost-stop sweep.
        BillingWorkerModule.forRoot({ lostStopMinutes: config.BILLING_LOST_STOP_MINUTES }),
        // The monitoring read model, fed from the gateway's events.
        MonitoringWorkerModule.forRoot(monitoringOptions(config)),
        // Charging consumption of prepaid card accounts, from the orders' events.
        LedgerWorkerModule.forRoot({ minimumBalanceFen: config.LEDGER_MINIMUM_BALANCE_FEN }),
        // Basic-data charging cards (and the piles' id tags) kept from the IC cards' events.
        AssetsWorkerModule.forRoot(),
      ],
    };
  }
}
