import { DynamicModule, Module } from '@nestjs/common';
import { JobsModule } from '@voltdepot/server-jobs';
import type { MsgCenterConfig } from '../../app.config';
import { MsgDomainModule } from '../../msg-domain.module';
import { AlertEvaluateHandler, alertEvaluateJob } from './alert-evaluate.job';
import { AlertEvaluator } from './alert-evaluator';
import { AlertTickHandler, alertTickJob } from './alert-tick.job';

/**
 * The alert checks and their schedule (worker process, when MSG_ALERTS_ENABLED): the `alerts.tick` and
 * `alert.evaluate` jobs and their handlers. Needs `JobsModule.forRoot` and DispatchModule's options.
 */
@Module({})
export class AlertEvaluationModule {
  static forRoot(
    config: Pick<MsgCenterConfig, 'MSG_ALERT_INTERVAL_MS' | 'MSG_ALERT_CONCURRENCY' | 'MSG_ALERT_TIMEOUT_MS'>,
  ): DynamicModule {
    return {
      module: AlertEvaluationModule,
      imports: [
        MsgDomainModule,
        JobsModule.forFeature([
          alertTickJob(config.MSG_ALERT_INTERVAL_MS),
          alertEvaluateJob({
            concurrency: config.MSG_ALERT_CONCURRENCY,
            timeoutMs: config.MSG_ALERT_TIMEOUT_MS,
          }),
        ]),
      ],
      providers: [AlertEvaluator, AlertTickHandler, AlertEvaluateHandler],
    };
  }
}
