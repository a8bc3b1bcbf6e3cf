import { DynamicModule, Module } from '@nestjs/common';
import { JobsModule } from '@voltdepot/server-jobs';
import type { MsgCenterConfig } from './app.config';
import { AlertEvaluationModule } from './alerts/evaluation/alert-evaluation.module';
import { coreImports, observability } from './app.module';
import { ChannelsModule } from './channels/channels.module';
import { StopNoticeRetentionModule } from './stop-notices/stop-notices.module';

/** The worker's name in logs and metrics. */
export const workerServiceName = (config: Pick<MsgCenterConfig, 'SERVICE_NAME'>) =>
  `${config.SERVICE_NAME}-worker`;

/**
 * The worker process: the channel queues' processors, and the scheduled jobs (alert checks, the stop
 * notices' retention) in the same BullMQ namespace (MSG_QUEUE_PREFIX). Shares every module but HTTP and
 * STOMP with main.ts; serves only /health and /metrics (MSG_WORKER_PORT, worker.main.ts).
 */
@Module({})
export class WorkerModule {
  static register(config: MsgCenterConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ...coreImports(config, 'worker'),
        JobsModule.forRoot({ redisUrl: config.REDIS_URL, prefix: config.MSG_QUEUE_PREFIX }),
        ChannelsModule,
        StopNoticeRetentionModule,
        // A worker with MSG_ALERTS_ENABLED=false neither schedules nor runs checks (others may).
        ...(config.MSG_ALERTS_ENABLED ? [AlertEvaluationModule.forRoot(config)] : []),
        observability(config, workerServiceName(config)),
      ],
    };
  }
}
